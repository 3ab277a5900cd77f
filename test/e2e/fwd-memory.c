// Forward mode through memory: several outputs written through a pointer
// (each output's tangent lands in its shadow), an in-place update, structs
// with integer, array and float fields, struct assignment (memcpy), local
// arrays, pointers stored in memory, and heap blocks from malloc, calloc
// and realloc, freed inside the function or handed back to the caller, a
// linked list whose nodes are freed through pointers loaded from memory,
// and a block the caller hands over to be freed (with its shadow).
// References: finite differences of the same C code, output by output. The
// sanitizer run checks that shadow blocks are neither leaked nor used after
// free.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O2 -ffast-math %s -o %tf -lm && %tf
// RUN: %clang-adjoint -O1 -fsanitize=address %s -o %ta -lm && %ta
#include "gradcheck.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
void __enzyme_fwddiff(void *, ...);
double __enzyme_fwddiff_d(void *, ...);

/* Which output of the function under test the references look at. */
static int Out;

/* In-place update of the state and two outputs. */
void step(double *state, const double *params, double *out) {
  state[0] = state[0] * state[0] + params[0];
  out[0] = state[0] * state[1];
  out[1] = exp(state[1]) + params[1] * state[0];
}
static long double step_at(const long double *v) {
  double s[2] = {v[0], v[1]}, p[2] = {v[2], v[3]}, o[2];
  step(s, p, o);
  return Out < 2 ? o[Out] : s[Out - 2];
}

typedef struct {
  int id;
  double w[3];
  float scale;
} Item;
/* Reads a struct, writes a struct (assigned whole, a memcpy), returns. */
double rescale(const Item *in, Item *out) {
  Item tmp = *in;
  tmp.w[0] *= tmp.scale;
  tmp.w[2] = tmp.w[1] * tmp.w[0] + tmp.id;
  tmp.scale = (float)(tmp.scale * 2);
  *out = tmp;
  return tmp.w[2] * tmp.scale;
}
static long double rescale_at(const long double *v) {
  Item in = {3, {v[0], v[1], v[2]}, (float)v[3]}, out;
  double r = rescale(&in, &out);
  return Out == 0 ? r : Out == 4 ? out.scale : out.w[Out - 1];
}

/* A local array with a run-time index, and pointers stored in memory. */
double local(const double *x, int k) {
  double t[3] = {0, 0, 0};
  const double *pp[2] = {x, t};
  t[k] = x[0] * 2;
  t[(k + 1) % 3] = x[1];
  return pp[1][0] * pp[1][1] + pp[0][1] * t[2];
}
static int LocalK;
static long double local_at(const long double *v) {
  double x[2] = {v[0], v[1]};
  return local(x, LocalK);
}

/* A temporary heap buffer, grown with realloc, freed. */
double heap(const double *x, int n) {
  double *t = malloc(2 * sizeof(double));
  t[0] = x[0] * x[1];
  t[1] = sin(x[1]);
  t = realloc(t, n * sizeof(double));
  for (int i = 2; i < n; ++i)
    t[i] = t[i - 1] * t[i - 2] + x[0];
  double *z = calloc(n, sizeof(double));
  z[n - 1] = t[n - 1];
  double r = z[n - 1] + z[0] + t[0];
  free(z);
  free(t);
  return r;
}
static long double heap_at(const long double *v) {
  double x[2] = {v[0], v[1]};
  return heap(x, 5);
}

/* A block allocated here and handed back through *out: its shadow comes
   back through the shadow of *out. */
void make(const double *x, double **out) {
  double *b = malloc(2 * sizeof(double));
  b[0] = x[0] * x[0];
  b[1] = x[0] + x[1];
  *out = b;
}
static long double make_at(const long double *v) {
  double x[2] = {v[0], v[1]}, *b;
  make(x, &b);
  double r = b[Out];
  free(b);
  return r;
}

/* A linked list built, walked and freed: the nodes freed come back from
   memory, and so do their shadows, which are freed too. */
typedef struct Cell {
  double v;
  struct Cell *next;
} Cell;
double list(const double *x, int n) {
  Cell *head = NULL;
  for (int i = 0; i < n; ++i) {
    Cell *c = malloc(sizeof(Cell));
    c->v = x[i] * x[i];
    c->next = head;
    head = c;
  }
  double s = 0;
  for (int k = 1; head; ++k) {
    s += head->v * k;
    Cell *next = head->next;
    free(head);
    head = next;
  }
  return s;
}
static long double list_at(const long double *v) {
  double x[3] = {v[0], v[1], v[2]};
  return list(x, 3);
}

/* Frees the block the caller hands it; its shadow goes with it. */
double consume(double *b) {
  double r = b[0] * b[1];
  free(b);
  return r;
}
static long double consume_at(const long double *v) {
  double *b = malloc(2 * sizeof(double));
  b[0] = v[0];
  b[1] = v[1];
  return consume(b);
}

int main(void) {
  long double at[4] = {0.4, 1.3, 0.1, 2.0}, dir[4] = {1, -0.5, 2, 0.25};
  for (Out = 0; Out != 4; ++Out) {
    double s[2] = {0.4, 1.3}, ds[2] = {1, -0.5}, p[2] = {0.1, 2.0},
           dp[2] = {2, 0.25}, o[2], dout[2] = {7, 7};
    __enzyme_fwddiff((void *)step, s, ds, p, dp, o, dout);
    double got = Out < 2 ? dout[Out] : ds[Out - 2];
    gc_tangent("step", step_at, 4, at, dir, got, GC_TOL_DOUBLE);
  }
  /* dupnoneed: the tangents are written all the same. */
  {
    double s[2] = {0.4, 1.3}, ds[2] = {0, 1}, p[2] = {0.1, 2.0}, o[2],
           dout[2] = {0, 0};
    __enzyme_fwddiff((void *)step, s, ds, enzyme_const, p, enzyme_dupnoneed,
                     o, dout);
    Out = 1;
    gc_tangent("step dupnoneed", step_at, 4, at, (long double[]){0, 1, 0, 0},
               dout[1], GC_TOL_DOUBLE);
  }
  for (Out = 0; Out != 5; ++Out) {
    /* The float field is read and written but not varied: finite
       differences through a float are too noisy to compare with. */
    Item in = {3, {0.5, -1.25, 2.0}, 0.75f}, din = {0, {1, 0.5, -1}, 0};
    Item out, dout;
    memset(&dout, 0, sizeof dout);
    double r = __enzyme_fwddiff_d((void *)rescale, &in, &din, &out, &dout);
    double got = Out == 0 ? r : Out == 4 ? dout.scale : dout.w[Out - 1];
    gc_tangent("rescale", rescale_at, 4,
               (long double[]){0.5, -1.25, 2.0, 0.75f},
               (long double[]){1, 0.5, -1, 0}, got, GC_TOL_DOUBLE);
  }
  for (LocalK = 0; LocalK != 3; ++LocalK) {
    double x[2] = {0.3, 0.8}, dx[2] = {1, 2};
    gc_tangent("local", local_at, 2, (long double[]){0.3, 0.8},
               (long double[]){1, 2},
               __enzyme_fwddiff_d((void *)local, x, dx, LocalK),
               GC_TOL_DOUBLE);
  }
  {
    double x[2] = {0.3, 0.8}, dx[2] = {-1, 0.5};
    gc_tangent("heap", heap_at, 2, (long double[]){0.3, 0.8},
               (long double[]){-1, 0.5},
               __enzyme_fwddiff_d((void *)heap, x, dx, 5), GC_TOL_DOUBLE);
  }
  for (Out = 0; Out != 2; ++Out) {
    double x[2] = {0.3, 0.8}, dx[2] = {1, 3}, *b, *db;
    __enzyme_fwddiff((void *)make, x, dx, &b, &db);
    gc_tangent("make", make_at, 2, (long double[]){0.3, 0.8},
               (long double[]){1, 3}, db[Out], GC_TOL_DOUBLE);
    free(b);
    free(db);
  }
  {
    double x[3] = {0.3, -0.8, 1.5}, dx[3] = {1, 2, -1};
    gc_tangent("list", list_at, 3, (long double[]){0.3, -0.8, 1.5},
               (long double[]){1, 2, -1},
               __enzyme_fwddiff_d((void *)list, x, dx, 3), GC_TOL_DOUBLE);
  }
  {
    double *b = malloc(2 * sizeof(double)), *db = malloc(2 * sizeof(double));
    b[0] = 0.7, b[1] = 1.9, db[0] = 1, db[1] = 0.5;
    gc_tangent("consume", consume_at, 2, (long double[]){0.7, 1.9},
               (long double[]){1, 0.5},
               __enzyme_fwddiff_d((void *)consume, b, db), GC_TOL_DOUBLE);
  }
  return gc_finish();
}
