// For test/LTO/thin.c: a function in a file of its own.
double remote(double x) { return x * x * x; }
