// A registered forward derivative whose signature is not the one forward
// mode calls it with: a located error that names the registration and
// spells out the expected signature, rather than a call with the wrong
// arguments. Here both tangents are missing. A pointer argument that
// carries no derivative at the call has no shadow to pass, so a derivative
// expecting one is reported with the signature that would work.
// RUN: not %clang-adjoint -g -O1 -c %s -o /dev/null 2>&1 | FileCheck %s

extern int enzyme_const;
double __enzyme_fwddiff(void *, ...);

static double f(double x, double y) { return x * y; }
static double f_fwd(double x, double y) { return y; }
void *__enzyme_register_derivative_f[2] = {(void *)f, (void *)f_fwd};

double use(double x) { return f(x, 2.0) + x; }
double d_use(double x) { return __enzyme_fwddiff((void *)use, x, 1.0); }

static const double Table[2] = {1.5, 2.5};
static double lookup(const double *t, double x) { return t[0] * x + t[1]; }
static double lookup_fwd(const double *t, const double *dt, double x,
                         double dx) {
  return t[0] * dx;
}
void *__enzyme_register_derivative_lookup[2] = {(void *)lookup,
                                                (void *)lookup_fwd};
double use2(double x) { return lookup(Table, x); }
double d_use2(double x) { return __enzyme_fwddiff((void *)use2, x, 1.0); }

// CHECK: fwd-custom-signature.c:16:31: error: adjoint: the custom derivative 'f_fwd' that '__enzyme_register_derivative_f' registers for 'f' has type 'double (double, double)', but forward mode calls it as 'double f_fwd(double x1, double dx1, double x2, double dx2)' (or, at this call, where only some arguments carry derivatives, 'double f_fwd(double x1, double dx1, double x2)'): the arguments of 'f', each floating-point value and pointer followed by its tangent, returning the tangent of its result (in the forward derivative of 'use' requested at {{.*}}fwd-custom-signature.c:17:33)
// CHECK: fwd-custom-signature.c:27:32: error: adjoint: the custom derivative 'lookup_fwd' that '__enzyme_register_derivative_lookup' registers for 'lookup' takes a shadow for parameter 1, but the pointer passed here leads to no derivatives and has no shadow; declare it as 'double lookup_fwd(void *x1, double x2, double dx2)' (in the forward derivative of 'use2' requested at {{.*}}fwd-custom-signature.c:28:34)
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
