/* C99 complex numbers inside the differentiated function, in double and
   float: multiplication and division (the __muldc3/__divdc3 and
   __mulsc3/__divsc3 calls clang makes unless -ffast-math; also
   __mulxc3/__divxc3 in long double), the <complex.h>
   functions, real and imaginary parts and the conjugate (libm calls under
   -fno-builtin), and a loop whose complex products the reverse pass needs
   per iteration. The loss is a real number.
   References: finite differences of the same code instantiated in long
   double (long double complex numbers, computed by the C library).
   RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
   RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
   RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
   RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
   RUN: %clang-adjoint -O2 -ffast-math %s -o %tf -lm && %tf
   RUN: %clang-adjoint -O2 -fno-builtin %s -o %tn -lm && %tn
   RUN: %clang-adjoint -O1 -fsanitize=address %s -o %ta -lm && %ta */
#include "gradcheck.h"
#include <complex.h>

typedef struct {
  double da, db, dc, dd;
} G4;
G4 __enzyme_autodiff(void *, ...);
typedef struct {
  float da, db, dc, dd;
} G4f;
G4f __enzyme_autodiff_f(void *, ...);
typedef struct {
  long double da, db;
} G2l;
G2l __enzyme_autodiff_l(void *, ...);

/* long double complex functions are passed in memory and have no rule;
   multiplication and division do. */
long double muldivl(long double a, long double b) {
  long double complex z = a + b * I, w = 1.5L - a * I;
  long double complex p = z * w / (z + 2);
  return __real__ p * __imag__ p; /* operators: no calls, even -fno-builtin */
}
static long double muldivl_at(const long double *v) {
  return muldivl(v[0], v[1]);
}

/* The bodies, once per precision: T the real type, C its complex type, F
   the suffix of the <complex.h> functions. */
#define ARITHMETIC(T, C, F)                                                    \
  C z = a + b * I, w = c + d * I;                                              \
  C p = z * w, q = z / w;                                                      \
  C e = cexp##F(p / 4);                                                        \
  C s = csqrt##F(q + 2);                                                       \
  return creal##F(e) * cimag##F(s) + cabs##F(q) + creal##F(conj##F(p) * I) +  \
         carg##F(w) + cimag##F(clog##F(z));
#define FUNCTIONS(T, C, F)                                                     \
  C z = a + b * I, w = c + d * I;                                              \
  C t = csin##F(z) * ccos##F(w) + ctan##F(z / 3) - csinh##F(w / 2);            \
  C u = ccosh##F(z / 2) / ctanh##F(w) + cpow##F(z, w / 2) + cproj##F(z);       \
  return creal##F(t * u) + cimag##F(t) * cabs##F(u);
#define LOOP(T, C, F)                                                          \
  C z = a + b * I, w = c + d * I, acc = 1;                                     \
  T sum = 0;                                                                   \
  for (int k = 0; k < 12; ++k) {                                               \
    acc = acc * z / (1 + w * (k % 3));                                         \
    sum += creal##F(acc) - cimag##F(acc * w);                                  \
  }                                                                            \
  return sum;

double arithmetic(double a, double b, double c, double d) {
  ARITHMETIC(double, double complex, )
}
float arithmeticf(float a, float b, float c, float d) {
  ARITHMETIC(float, float complex, f)
}
static long double arithmeticl(long double a, long double b, long double c,
                               long double d) {
  ARITHMETIC(long double, long double complex, l)
}

double functions(double a, double b, double c, double d) {
  FUNCTIONS(double, double complex, )
}
float functionsf(float a, float b, float c, float d) {
  FUNCTIONS(float, float complex, f)
}
static long double functionsl(long double a, long double b, long double c,
                              long double d) {
  FUNCTIONS(long double, long double complex, l)
}

double loop(double a, double b, double c, double d) {
  LOOP(double, double complex, )
}
float loopf(float a, float b, float c, float d) {
  LOOP(float, float complex, f)
}
static long double loopl(long double a, long double b, long double c,
                         long double d) {
  LOOP(long double, long double complex, l)
}

static long double arithmetic_at(const long double *v) {
  return arithmeticl(v[0], v[1], v[2], v[3]);
}
static long double functions_at(const long double *v) {
  return functionsl(v[0], v[1], v[2], v[3]);
}
static long double loop_at(const long double *v) {
  return loopl(v[0], v[1], v[2], v[3]);
}

static void check(const char *name, gc_fn ref, const double *pt, G4 g,
                  G4f f) {
  long double p[] = {pt[0], pt[1], pt[2], pt[3]};
  long double got[] = {g.da, g.db, g.dc, g.dd};
  gc_grad(name, ref, 4, p, got, GC_TOL_DOUBLE);
  /* float: the reference at the point rounded to float. */
  long double pf[] = {(float)pt[0], (float)pt[1], (float)pt[2],
                      (float)pt[3]};
  long double gotf[] = {f.da, f.db, f.dc, f.dd};
  gc_grad(name, ref, 4, pf, gotf, GC_TOL_FLOAT);
}

/* __enzyme_autodiff needs the function itself, so each call is spelled
   out. */
#define CHECK(name, pt)                                                        \
  check(#name, name##_at, pt,                                                  \
        __enzyme_autodiff((void *)name, pt[0], pt[1], pt[2], pt[3]),           \
        __enzyme_autodiff_f((void *)name##f, (float)pt[0], (float)pt[1],       \
                            (float)pt[2], (float)pt[3]))

int main(void) {
  const double pts[][4] = {{0.7, -0.4, 1.3, 0.6}, {-0.3, 0.9, 0.8, -1.1}};
  for (int i = 0; i != 2; ++i) {
    CHECK(arithmetic, pts[i]);
    CHECK(functions, pts[i]);
    CHECK(loop, pts[i]);
    G2l l = __enzyme_autodiff_l((void *)muldivl, (long double)pts[i][0],
                                (long double)pts[i][1]);
    long double pl[] = {pts[i][0], pts[i][1]}, gotl[] = {l.da, l.db};
    gc_grad("muldivl", muldivl_at, 2, pl, gotl, GC_TOL_LDOUBLE);
  }
  return gc_finish();
}
