// The plugin rejects this call: f takes two arguments, the call passes one.
double __enzyme_autodiff(void *, ...);

double f(double x, double y) { return x * y; }

double df(double x) { return __enzyme_autodiff((void *)f, x); }
