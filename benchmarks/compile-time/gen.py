#!/usr/bin/env python3
"""Writes a C program of N small functions for the compile-time benchmark.

The functions form a DAG in layers: layer 0 holds leaves, and each function
of a higher layer calls one function of the layer below and, half of the
time, a shared helper of layer 0 or 1, which is thus called from several
places (inlining copies it as many times). Every function has one of four
shapes:

  S  double f(double a, double b)          arithmetic with libm calls
  A  double f(const double *x, int n, double a)
                                           a loop over an array (a reduction,
                                           a nonlinear recurrence, neighbour
                                           differences, a local array, or a
                                           triangular nest)
  V  V3 f(V3 p, double a)                  a struct of three doubles in and out
  P  void f(V3 *p, double a)               a struct updated in place

`loss(const double *x, int n)` calls every function that no other function
calls (so every function contributes) and sums their results into a scalar.
main() asks for its gradient with __enzyme_autodiff and compares it with
central finite differences computed in long double (one Richardson step, as
test/Inputs/gradcheck.h does), exiting with status 1 on a mismatch.

Everything computed is smooth: branches choose between two formulas of the
same function (a numerically stable softplus or sigmoid), so that finite
differences agree with the gradient on both sides. Values stay moderate
however deep the DAG: scalar results are squashed (tanh, atan, ...), and
struct fields shrink by a factor and add a squashed update. The program depends only on libm and compiles without the
plugin too (`clang -c`), where __enzyme_autodiff stays an external call.

Usage: gen.py [-n N] [--seed S] [--static] [-o FILE]
The output depends only on N, the seed and --static.
"""

import argparse
import random
import sys

# Length of the input array; the gradient has this many components.
NX = 12

# Fractions of the functions in each layer, leaves first (normalised below).
LAYER_WEIGHTS = [0.36, 0.26, 0.18, 0.12, 0.08]

# How often a function also calls a shared helper: a leaf, or a function of
# layer 1.
SHARED_LEAF = 0.3
SHARED_LAYER1 = 0.2

# How often each shape is chosen.
KIND_WEIGHTS = {"S": 0.35, "A": 0.30, "V": 0.15, "P": 0.20}

# One statement `double t = <template>;`. {u} and {v} are variables (they
# may be repeated: they are names, not expressions), {c} a constant in
# (0.3, 0.9). Every template is smooth everywhere.
STATEMENTS = [
    "{c} * {u} + {v}",
    "{u} * {v}",
    "{u} - {c} * {v}",
    "sin({u}) * {c} + {v}",
    "cos({u}) * {v}",
    "{u} / (1.0 + {v} * {v})",
    "sqrt(1.0 + {u} * {u})",
    "log1p({u} * {u}) - {v}",
    "exp(-{u} * {u}) * {v}",
    "tanh({c} * {u} + {v})",
    "atan({u} * {v})",
    "erf({c} * {u}) + {v}",
    "pow(1.0 + {u} * {u}, {c})",
    "cbrt(1.5 + sin({u})) * {v}",
    "hypot({u}, 1.0 + {v} * {v})",
    "asinh({u}) + {c} * {v}",
    "expm1({c} * sin({u}))",
    "atan2({u}, 2.0 + cos({v}))",
    "fma({u}, {v}, {c})",
    "exp({c} * cos({u})) + {v}",
]

# Branchy statements: two formulas of one smooth function, so that finite
# differences agree with the derivative on both sides of the condition.
# {t} is the variable being defined.
BRANCHES = [
    # softplus(u - v), stable for both signs
    "double {t};\n"
    "if ({u} > {v})\n"
    "  {t} = ({u} - {v}) + log1p(exp({v} - {u}));\n"
    "else\n"
    "  {t} = log1p(exp({u} - {v}));",
    # the logistic sigmoid of u, stable for both signs
    "double {t} = {u} >= 0 ? 1.0 / (1.0 + exp(-{u})) : exp({u}) / (1.0 + exp({u}));",
]

# Squashes applied to a function's result, so that values stay moderate.
SQUASHES = [
    "tanh({})",
    "atan({})",
    "sin({})",
    "{0} / sqrt(1.0 + {0} * {0})",
    "log1p({0} * {0})",
]


class Generator:
    """Writes one program; all randomness comes from one seeded generator."""

    def __init__(self, n, seed, static):
        self.rng = random.Random(seed)
        self.n = n
        self.linkage = "static " if static else ""

    # -- small random pieces ------------------------------------------------

    def const(self):
        return "%.3f" % self.rng.uniform(0.3, 0.9)

    def squash(self, var):
        return self.rng.choice(SQUASHES).format(var)

    def statements(self, pool, count, prefix, indent="  "):
        """Appends `count` statements over the scalar variables in `pool`,
        each defining a new variable (added to the pool). Returns the lines
        and the last variable defined."""
        lines = []
        last = None
        for i in range(count):
            t = "%s%d" % (prefix, i)
            # Statements chain (each uses the previous one), so that none
            # is dead.
            u = pool[-1]
            v = self.rng.choice(pool)
            if self.rng.random() < 0.12:
                text = self.rng.choice(BRANCHES).format(t=t, u=u, v=v)
                lines += [indent + l for l in text.split("\n")]
            else:
                template = self.rng.choice(STATEMENTS)
                lines.append("%sdouble %s = %s;" % (
                    indent, t, template.format(u=u, v=v, c=self.const())))
            pool.append(t)
            last = t
        return lines, last

    # -- the DAG ------------------------------------------------------------

    def plan(self):
        """Chooses each function's layer, shape and callees.

        Each function above the leaves calls one function of the layer just
        below that has no caller yet (so the calls form trees, and inlining
        copies each tree once), plus sometimes a shared helper: a leaf, or
        a function of layer 1 (itself calling a leaf). Those are called from
        several places and copied by inlining as many times; the number of
        copies stays proportional to N (inlined_copies)."""
        total = sum(LAYER_WEIGHTS)
        sizes = [max(1, round(self.n * w / total)) for w in LAYER_WEIGHTS]
        sizes[0] += self.n - sum(sizes)  # rounding
        kinds = list(KIND_WEIGHTS)
        weights = [KIND_WEIGHTS[k] for k in kinds]
        self.layer, self.kind, self.callees = [], [], []
        layers = []
        index = 0
        for depth, size in enumerate(sizes):
            members = list(range(index, index + size))
            index += size
            layers.append(members)
            uncalled = list(layers[depth - 1]) if depth else []
            self.rng.shuffle(uncalled)
            for f in members:
                self.layer.append(depth)
                self.kind.append(self.rng.choices(kinds, weights)[0])
                chosen = []
                if depth:
                    chosen.append(uncalled.pop() if uncalled
                                  else self.rng.choice(layers[depth - 1]))
                    shared = self.rng.random()
                    if shared < SHARED_LEAF:
                        chosen.append(self.rng.choice(layers[0]))
                    elif shared < SHARED_LEAF + SHARED_LAYER1 and depth >= 2:
                        chosen.append(self.rng.choice(layers[1]))
                    chosen = list(dict.fromkeys(chosen))  # no duplicates
                self.callees.append(chosen)
        called = {g for cs in self.callees for g in cs}
        self.roots = [f for f in range(self.n) if f not in called]

    def inlined_copies(self):
        """How many copies of function bodies inlining everything into loss
        makes (the number of paths from loss in the DAG)."""
        paths = [0] * self.n
        for f in self.roots:
            paths[f] += 1
        for f in reversed(range(self.n)):  # callers come after callees
            for g in self.callees[f]:
                paths[g] += paths[f]
        return sum(paths)

    # -- calls --------------------------------------------------------------

    def call(self, g, pool, array, tag):
        """Lines that call g with arguments taken from the scalar `pool`
        (and the caller's array, when it has one); the scalars the call
        produces are appended to the pool."""
        rng = self.rng
        name = "f%d" % g
        kind = self.kind[g]
        r = "r" + tag
        if kind == "S":
            return ["  double %s = %s(%s, %s);" % (
                r, name, rng.choice(pool), rng.choice(pool))], [r]
        if kind == "A":
            if array:
                off = rng.choice(["", " + 1"])
                args = "x%s, n%s" % (off, " - 1" if off else "")
                return ["  double %s = %s(%s, %s);" % (
                    r, name, args, rng.choice(pool))], [r]
            # No array at hand: build a local one from the scalars.
            w = "w" + tag
            elems = ", ".join(rng.choice(pool) for _ in range(6))
            return ["  double %s[6] = {%s};" % (w, elems),
                    "  double %s = %s(%s, 6, %s);" % (
                        r, name, w, rng.choice(pool))], [r]
        q = "q" + tag
        fields = ", ".join(rng.choice(pool) for _ in range(3))
        lines = ["  V3 %s = {%s};" % (q, fields)]
        if kind == "V":
            lines.append("  %s = %s(%s, %s);" % (q, name, q, rng.choice(pool)))
        else:
            lines.append("  %s(&%s, %s);" % (name, q, rng.choice(pool)))
        return lines, ["%s.u" % q, "%s.v" % q, "%s.w" % q]

    def calls(self, f, pool, array):
        lines = []
        for i, g in enumerate(self.callees[f]):
            more, results = self.call(g, pool, array, str(i))
            lines += more
            pool += results
        return lines

    # -- function bodies ----------------------------------------------------

    def scalar_function(self, f):
        pool = ["a", "b"]
        body = self.calls(f, pool, False)
        more, last = self.statements(pool, self.rng.randint(2, 5), "t")
        body += more
        return ("double f%d(double a, double b)" % f,
                body + ["  return %s;" % self.squash(last)])

    def array_function(self, f):
        rng = self.rng
        pool = ["a"]
        body = self.calls(f, pool, True)
        outer = list(pool)  # loop invariants: parameters, call results
        shape = rng.choice(["sum", "recurrence", "neighbours", "local", "nest"])
        c = self.const()
        if shape == "sum":
            body.append("  double s = 0;")
            body.append("  for (int k = 0; k < n; ++k) {")
            more, last = self.statements(outer + ["x[k]"], rng.randint(1, 3),
                                         "e", "    ")
            body += more + ["    s += %s;" % last, "  }"]
        elif shape == "recurrence":
            # A nonlinear recurrence: the reverse needs every s.
            body.append("  double s = %s;" % rng.choice(outer))
            body.append("  for (int k = 0; k < n; ++k) {")
            more, last = self.statements(outer + ["x[k]", "s"],
                                         rng.randint(1, 2), "e", "    ")
            body += more + ["    s = %s * s + 0.3 * %s;" % (
                c, self.squash(last)), "  }"]
        elif shape == "neighbours":
            body.append("  double s = 0;")
            body.append("  for (int k = 1; k < n; ++k) {")
            body.append("    double d = x[k] - x[k - 1];")
            more, last = self.statements(outer + ["d"], rng.randint(1, 2),
                                         "e", "    ")
            body += more + ["    s += %s;" % last, "  }"]
        elif shape == "local":
            # A local array, written by one loop and read by another.
            body.append("  double w[8] = {0};")
            body.append("  int m = n < 8 ? n : 8;")
            body.append("  for (int k = 0; k < m; ++k) {")
            more, last = self.statements(outer + ["x[k]"], rng.randint(1, 2),
                                         "e", "    ")
            body += more + ["    w[k] = %s;" % last, "  }"]
            body.append("  double s = 0;")
            body.append("  for (int k = 0; k < m; ++k)")
            body.append("    s += w[k] * w[m - 1 - k];")
        else:
            body.append("  double s = 0;")
            body.append("  for (int i = 0; i < n; ++i)")
            body.append("    for (int j = 0; j < i; ++j) {")
            more, last = self.statements(outer + ["x[i]", "x[j]"],
                                         rng.randint(1, 2), "e", "      ")
            body += more + ["      s += %s;" % last, "    }"]
        body.append("  double z = %s * s + %s;" % (self.const(),
                                                   rng.choice(outer)))
        return ("double f%d(const double *x, int n, double a)" % f,
                body + ["  return %s;" % self.squash("z")])

    def struct_function(self, f, in_place):
        p = "p->" if in_place else "p."
        pool = ["a", p + "u", p + "v", p + "w"]
        body = self.calls(f, pool, False)
        more, _ = self.statements(pool, self.rng.randint(2, 4), "t")
        body += more
        target = "p->" if in_place else "q."
        if not in_place:
            body.append("  V3 q;")
        # Each field: a contraction of the old value plus a bounded update,
        # in place in the order u, v, w (later updates see earlier ones).
        for field in "uvw":
            body.append("  %s%s = %s * %s%s + %s * %s;" % (
                target, field, self.const(), p, field, self.const(),
                self.squash(self.rng.choice(pool[-4:]))))
        if in_place:
            return "void f%d(V3 *p, double a)" % f, body
        return "V3 f%d(V3 p, double a)" % f, body + ["  return q;"]

    def function(self, f):
        kind = self.kind[f]
        if kind == "S":
            return self.scalar_function(f)
        if kind == "A":
            return self.array_function(f)
        return self.struct_function(f, kind == "P")

    # -- the program --------------------------------------------------------

    def loss(self):
        """loss(x, n): the sum of the roots' results, each scaled."""
        pool = ["x[%d]" % i for i in range(NX)]
        lines = ["double loss(const double *x, int n) {", "  double L = 0;"]
        for i, f in enumerate(self.roots):
            more, results = self.call(f, pool[:NX], True, str(i))
            lines += more
            term = results[0] if len(results) == 1 else \
                "(%s + %s * %s)" % tuple(results)
            lines.append("  L += %s * %s;" % (self.const(), term))
        lines += ["  return L;", "}"]
        return lines

    def main(self):
        point = ", ".join("%.4f" % self.rng.uniform(-1, 1) for _ in range(NX))
        return MAIN.replace("@NX@", str(NX)).replace("@POINT@", point)

    def write(self, stream):
        self.plan()
        w = stream.write
        w("/* Generated by benchmarks/compile-time/gen.py: %d functions in %d "
          "layers, %d called by loss;\n   inlining all of them into loss "
          "copies %d function bodies. Do not edit. */\n"
          % (self.n, len(LAYER_WEIGHTS), len(self.roots),
             self.inlined_copies()))
        w(PRELUDE)
        # Callees come first: functions are written in index order, and a
        # function only calls lower indices.
        for f in range(self.n):
            signature, body = self.function(f)
            w("\n/* layer %d, shape %s */\n%s%s {\n%s\n}\n" % (
                self.layer[f], self.kind[f], self.linkage, signature,
                "\n".join(body)))
        w("\n" + "\n".join(self.loss()) + "\n")
        w(self.main())


PRELUDE = """
#include <math.h>
#include <stdio.h>

typedef struct {
  double u, v, w;
} V3;

/* Enzyme's interface: pointer arguments default to enzyme_dup (followed by
   their shadow), integers to enzyme_const. */
void __enzyme_autodiff(void *, ...);

double loss(const double *x, int n);
"""

MAIN = r"""
/* Central differences of loss in component i, taken in long double with
   one Richardson step (error O(h^4)). The points are rounded to double to
   call loss, so the step actually taken is divided by, not the one asked
   for. */
static long double finite_difference(const double *x, int i) {
  double v[@NX@];
  long double h = 1e-4L * (fabs(x[i]) > 1 ? fabs(x[i]) : 1), d[2];
  for (int k = 0; k != 2; ++k, h /= 2) {
    for (int j = 0; j != @NX@; ++j)
      v[j] = x[j];
    double up = (double)(x[i] + h), down = (double)(x[i] - h);
    v[i] = up;
    long double fu = loss(v, @NX@);
    v[i] = down;
    long double fd = loss(v, @NX@);
    d[k] = (fu - fd) / ((long double)up - (long double)down);
  }
  return (4 * d[1] - d[0]) / 3;
}

int main(void) {
  double x[@NX@] = {@POINT@};
  double dx[@NX@] = {0};
  __enzyme_autodiff((void *)loss, x, dx, @NX@);
  int failures = 0;
  long double worst = 0;
  for (int i = 0; i != @NX@; ++i) {
    long double want = finite_difference(x, i);
    long double err = fabsl(dx[i] - want) / (1 + fabsl(want));
    /* Written so that a NaN fails. */
    if (!(err <= 1e-6L)) {
      ++failures;
      fprintf(stderr, "FAIL d loss / d x[%d]: finite differences %.17Lg, "
              "gradient %.17g\n", i, want, dx[i]);
    }
    if (err > worst)
      worst = err;
  }
  printf("loss = %.17g, gradient of %d components %s finite differences "
         "(largest relative error %.2Lg)\n", loss(x, @NX@), @NX@,
         failures ? "does NOT match" : "matches", worst);
  return failures != 0;
}
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", "--functions", type=int, default=300,
                        help="number of functions besides loss and main "
                             "(default 300)")
    parser.add_argument("--seed", type=int, default=1,
                        help="random seed (default 1)")
    parser.add_argument("--static", action="store_true",
                        help="give the functions internal linkage, so that "
                             "the optimizer may delete them once inlined")
    parser.add_argument("-o", "--output", help="output file (default stdout)")
    args = parser.parse_args()
    if args.functions < len(LAYER_WEIGHTS):
        parser.error("need at least %d functions" % len(LAYER_WEIGHTS))
    gen = Generator(args.functions, args.seed, args.static)
    if args.output:
        with open(args.output, "w") as stream:
            gen.write(stream)
    else:
        gen.write(sys.stdout)


if __name__ == "__main__":
    main()
