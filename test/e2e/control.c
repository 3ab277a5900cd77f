// Checks gradients through control flow: if/else, ternaries (select),
// switches on a const int and on an int computed from a double, nested
// branches, phi nodes and several or early returns, on every side of every
// branch.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O2 -ffast-math %s -o %tf -lm && %tf
// RUN: %clang-adjoint -O2 -g %s -o %tg -lm && %tg
#include "gradcheck.h"

extern int enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
typedef struct { double dx, dy; } D2;
#define autodiff_d2 ((D2(*)(void *, ...))__enzyme_autodiff)

// if/else assigning a variable: a phi after the join.
double ifelse(double x, double y) {
  double r;
  if (x > y)
    r = x * x * y;
  else
    r = y / x - x;
  return r + x;
}
// One arm only, with a condition on a computed value.
double onearm(double x, double y) {
  double r = x * y;
  if (r < 1.0)
    r = r * r + y;
  return r;
}
// Ternaries, usually selects after optimization.
double ternary(double x, double y) {
  double a = x < 0 ? -x : x;
  double b = x * y > 0.5 ? x * y : y - x;
  return a * b + (y > 1.0 ? y * y : 2.0);
}
// A switch on an enzyme_const integer, with fall-through.
double switch_const(double x, int mode) {
  double r = x;
  switch (mode) {
  case 0:
    r = x * x;
    break;
  case 1:
    r = x * x * x;
    // fall through
  case 2:
    r = r + 3.0 * x;
    break;
  case 7:
    return -x;
  default:
    r = 1.0 / x;
  }
  return r * x;
}
// A switch on an int computed from the active double: each case is smooth
// between integers.
double switch_computed(double x, double y) {
  switch ((int)x) {
  case 0:
    return x * y;
  case 1:
    return x * x + y;
  case -1:
  case -2:
    return y / x;
  default:
    return x - y * y;
  }
}
// Nested branches and several early returns.
double nested(double x, double y) {
  if (x > 0) {
    if (y > 0)
      return x * y;
    if (y < -1)
      return x / y;
    x = x * 2.0;
  } else {
    if (y > x)
      x = y - x * x;
    else
      return y * y;
  }
  return x + y * x;
}
// Several cases sharing a target: after simplification the switch has
// duplicate edges into the join, whose phi takes the same value on each.
double switch_shared(double x, int n) {
  double t = x * 3, r;
  switch (n) {
  case 1:
  case 2:
    r = t;
    break;
  case 3:
  case 5:
    r = x;
    break;
  case 4:
    r = 1.0;
    break;
  default:
    r = t * t;
  }
  return r;
}
// A branch on an integer argument guarding active code.
double intbranch(double x, int n) {
  if (n > 2)
    return x * n;
  if (n & 1)
    return x * x;
  return 5.0;
}

static long double ifelse_at(const long double *v) { return ifelse(v[0], v[1]); }
static long double onearm_at(const long double *v) { return onearm(v[0], v[1]); }
static long double ternary_at(const long double *v) {
  return ternary(v[0], v[1]);
}
static int n_now; // the const integer argument of the current check
static long double switch_const_at(const long double *v) {
  return switch_const(v[0], n_now);
}
static long double switch_computed_at(const long double *v) {
  return switch_computed(v[0], v[1]);
}
static long double nested_at(const long double *v) { return nested(v[0], v[1]); }
static long double switch_shared_at(const long double *v) {
  return switch_shared(v[0], n_now);
}
static long double intbranch_at(const long double *v) {
  return intbranch(v[0], n_now);
}

static void check2(const char *name, gc_fn f, double x, double y, D2 g) {
  gc_grad(name, f, 2, (long double[]){x, y}, (long double[]){g.dx, g.dy},
          GC_TOL_DOUBLE);
}

int main(void) {
  // (x, y) pairs reaching every branch above, away from the boundaries.
  const double pts[][2] = {{1.5, 0.5},  {0.3, 0.8},  {0.4, 2.6},
                           {-0.7, 1.2}, {-1.5, -0.3}, {-2.5, -4.0},
                           {0.6, -0.4}, {0.9, -2.0}, {1.7, 1.1},
                           {-0.4, 3.0}, {3.5, 0.2}};
  for (unsigned i = 0; i != sizeof pts / sizeof *pts; ++i) {
    double x = pts[i][0], y = pts[i][1];
    check2("ifelse", ifelse_at, x, y, autodiff_d2((void *)ifelse, x, y));
    check2("onearm", onearm_at, x, y, autodiff_d2((void *)onearm, x, y));
    check2("ternary", ternary_at, x, y, autodiff_d2((void *)ternary, x, y));
    check2("switch_computed", switch_computed_at, x, y,
           autodiff_d2((void *)switch_computed, x, y));
    check2("nested", nested_at, x, y, autodiff_d2((void *)nested, x, y));
    // With explicit markers: same pattern as the defaults.
    check2("nested, markers", nested_at, x, y,
           autodiff_d2((void *)nested, enzyme_out, x, enzyme_out, y));
  }

  const double xs[] = {0.8, -1.3};
  for (int i = 0; i != 2; ++i) {
    long double x = xs[i];
    for (n_now = 0; n_now <= 8; ++n_now) {
      gc_grad("switch_const", switch_const_at, 1, &x,
              (long double[]){__enzyme_autodiff((void *)switch_const, xs[i],
                                                enzyme_const, n_now)},
              GC_TOL_DOUBLE);
      gc_grad("switch_shared", switch_shared_at, 1, &x,
              (long double[]){__enzyme_autodiff((void *)switch_shared, xs[i],
                                                enzyme_const, n_now)},
              GC_TOL_DOUBLE);
      gc_grad("intbranch", intbranch_at, 1, &x,
              (long double[]){__enzyme_autodiff((void *)intbranch, xs[i],
                                                n_now)},
              GC_TOL_DOUBLE);
    }
  }
  return gc_finish();
}
