// Checks gradients through loops that use heap memory: a temporary array
// malloc'd, filled in one loop, reduced in another and freed; an array of
// structs (with an int field between the doubles) updated in place over
// several time steps; a malloc and a free in every iteration (fixed and
// run-time sizes, calloc); a vector grown by realloc in a loop (push_back).
// References: long-double finite differences of the same C code. The
// sanitizer run checks that no shadow block leaks or is used after free.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O1 -fsanitize=address %s -o %ta -lm && %ta
#include "gradcheck.h"
#include <stdlib.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);

/* The entropy of softmax(x), through a temporary array. */
double entropy(const double *x, int n) {
  double *e = malloc(n * sizeof(double)), z = 0;
  for (int i = 0; i < n; ++i) {
    e[i] = exp(x[i]);
    z += e[i];
  }
  double h = 0;
  for (int i = 0; i < n; ++i) {
    double p = e[i] / z;
    h -= p * log(p);
  }
  free(e);
  return h;
}
/* Masses on a chain of springs with a cubic restoring force: `steps`
   semi-implicit Euler steps up to time tend, updating the array in place,
   then the energy plus a term weighted by the int field. */
typedef struct {
  double pos, vel;
  int id;
  double mass;
} Body;
double bodies(Body *b, int n, int steps, double tend) {
  double dt = tend / (steps > 0 ? steps : 1);
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i) {
      double f = -0.1 * b[i].pos * b[i].pos * b[i].pos;
      if (i > 0)
        f += b[i - 1].pos - b[i].pos;
      if (i + 1 < n)
        f += b[i + 1].pos - b[i].pos;
      b[i].vel += dt * f / b[i].mass;
    }
    for (int i = 0; i < n; ++i)
      b[i].pos += dt * b[i].vel;
  }
  double e = 0;
  for (int i = 0; i < n; ++i)
    e += 0.5 * b[i].mass * b[i].vel * b[i].vel + b[i].id * b[i].pos;
  return e;
}
/* A block allocated and freed in every iteration. */
double per_iteration(const double *x, int n) {
  double s = 0.5;
  for (int i = 0; i < n; ++i) {
    double *t = malloc(3 * sizeof(double));
    t[0] = x[i] * s;
    t[1] = sin(t[0]) + x[i];
    t[2] = t[0] * t[1];
    s = 0.5 * s + 0.3 * t[2];
    free(t);
  }
  return s;
}
/* A row of run-time length i + 1, calloc'd in every outer iteration. */
double rows(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double *row = calloc(i + 1, sizeof(double));
    for (int j = 0; j <= i; ++j)
      row[j] += x[j] * x[i - j];
    for (int j = 0; j <= i; ++j)
      s += row[j] * cos(row[j]);
    free(row);
  }
  return s;
}
/* A vector grown by realloc, doubling its capacity (from a null pointer),
   and read back after each growth. */
typedef struct {
  double *data;
  int len, cap;
} Vec;
static void push(Vec *v, double value) {
  if (v->len == v->cap) {
    v->cap = v->cap ? 2 * v->cap : 1;
    v->data = realloc(v->data, v->cap * sizeof(double));
  }
  v->data[v->len++] = value;
}
double pushback(const double *x, int n) {
  Vec v = {0, 0, 0};
  for (int i = 0; i < n; ++i) {
    push(&v, x[i] * x[i]);
    if (v.len > 1)
      push(&v, 0.5 * v.data[v.len - 2] + x[i]);
  }
  double s = 0;
  for (int i = 0; i < v.len; ++i)
    s += v.data[i] * (i % 3 + 1);
  free(v.data);
  return s;
}

static int N, Steps;
typedef double (*array_fn)(const double *, int);
static array_fn Fn; // the function of the current check, for references
/* The gradient of Fn: each request names its function. */
static void grad(const double *x, double *dx, int n) {
  if (Fn == entropy)
    __enzyme_autodiff((void *)entropy, enzyme_dup, x, dx, enzyme_const, n);
  else if (Fn == per_iteration)
    __enzyme_autodiff((void *)per_iteration, x, dx, enzyme_const, n);
  else if (Fn == rows)
    __enzyme_autodiff((void *)rows, enzyme_dup, x, dx, n);
  else
    __enzyme_autodiff((void *)pushback, x, dx, n);
}
static long double array_at(const long double *v) {
  double x[16];
  for (int i = 0; i != N; ++i)
    x[i] = v[i];
  return Fn(x, N);
}
static const int Ids[5] = {3, -1, 0, 2, 5};
/* v: pos, vel, mass of each body, then tend. */
static long double bodies_at(const long double *v) {
  Body b[5];
  for (int i = 0; i != N; ++i)
    b[i] = (Body){v[3 * i], v[3 * i + 1], Ids[i], v[3 * i + 2]};
  return bodies(b, N, Steps, v[3 * N]);
}

int main(void) {
  const double X[16] = {0.9,  -1.3,  0.45, 2.1,  -0.7, 1.6, -2.4,  0.35,
                        1.05, -0.55, 0.8,  -1.9, 1.25, 0.6, -0.95, 1.4};
  const struct {
    const char *name;
    array_fn fn;
  } fns[] = {{"entropy", entropy},
             {"per_iteration", per_iteration},
             {"rows", rows},
             {"pushback", pushback}};
  const int ns[] = {0, 1, 2, 5, 16};
  for (int f = 0; f != 4; ++f)
    for (int t = 0; t != 5; ++t) {
      Fn = fns[f].fn, N = ns[t];
      double x[16], dx[16];
      long double v[16], g[16];
      for (int i = 0; i != 16; ++i)
        x[i] = 0.6 * X[i], dx[i] = 0;
      grad(x, dx, N);
      for (int i = 0; i != N; ++i)
        v[i] = x[i], g[i] = dx[i];
      gc_grad(fns[f].name, array_at, N, v, g, GC_TOL_DOUBLE);
    }
  for (N = 1; N <= 5; N += 4)
    for (Steps = 0; Steps <= 50; Steps += 25) {
      Body b[5], db[5] = {{0}};
      long double v[16], g[16];
      for (int i = 0; i != N; ++i) {
        b[i] = (Body){X[i], 0.5 * X[i + 5], Ids[i], 1 + 0.2 * i};
        v[3 * i] = b[i].pos, v[3 * i + 1] = b[i].vel, v[3 * i + 2] = b[i].mass;
      }
      v[3 * N] = 2.5;
      g[3 * N] = __enzyme_autodiff((void *)bodies, b, db, N, Steps, 2.5);
      for (int i = 0; i != N; ++i) {
        g[3 * i] = db[i].pos, g[3 * i + 1] = db[i].vel;
        g[3 * i + 2] = db[i].mass;
        gc_expect("bodies", "id shadow untouched", db[i].id, 0, 0);
      }
      gc_grad("bodies", bodies_at, 3 * N + 1, v, g, GC_TOL_DOUBLE);
    }
  return gc_finish();
}
