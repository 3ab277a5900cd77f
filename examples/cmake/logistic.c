// The CMake example's C program: logistic regression on a small data set.
// Adjoint computes the gradient of the loss with respect to the weights; the
// program checks it against central finite differences, then trains.
// Exits with status 1 if the gradient is wrong or training fails.
#include <adjoint/adjoint.h>
#include <math.h>
#include <stdio.h>

enum { N = 8, D = 3 }; // points; weights (two features and a bias)

// Points (u, v) labelled 1 above the line v = u, else 0.
static const double X[N][2] = {{0.1, 0.9}, {0.4, 0.8}, {0.2, 0.5}, {0.7, 0.9},
                               {0.9, 0.2}, {0.6, 0.1}, {0.8, 0.5}, {0.3, 0.1}};
static const double label[N] = {1, 1, 1, 1, 0, 0, 0, 0};

// Mean cross-entropy of the predictions sigmoid(w0 u + w1 v + w2).
double loss(const double *w, int n) {
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    double z = w[0] * X[i][0] + w[1] * X[i][1] + w[2];
    double p = 1 / (1 + exp(-z));
    sum -= label[i] * log(p) + (1 - label[i]) * log(1 - p);
  }
  return sum / n;
}

// grad = d loss / d w. w's shadow, grad, receives the gradient (added to
// what it holds); n is an integer, hence constant.
static void gradient(const double *w, double *grad) {
  for (int j = 0; j < D; ++j)
    grad[j] = 0;
  __enzyme_autodiff((void *)loss, enzyme_dup, w, grad, N);
}

int main(void) {
  double w[D] = {0.5, -0.3, 0.1}, grad[D];
  gradient(w, grad);
  int ok = 1;
  for (int j = 0; j < D; ++j) {
    const double h = 1e-6;
    double wp[D] = {w[0], w[1], w[2]}, wm[D] = {w[0], w[1], w[2]};
    wp[j] += h;
    wm[j] -= h;
    double fd = (loss(wp, N) - loss(wm, N)) / (2 * h);
    int close = fabs(grad[j] - fd) <= 1e-7 * (1 + fabs(fd));
    printf("d loss / d w%d = %+.10f  finite difference %+.10f  %s\n", j,
           grad[j], fd, close ? "ok" : "WRONG");
    ok &= close;
  }

  for (int step = 0; step < 500; ++step) {
    gradient(w, grad);
    for (int j = 0; j < D; ++j)
      w[j] -= 2.0 * grad[j];
  }
  int correct = 0;
  for (int i = 0; i < N; ++i)
    correct += (w[0] * X[i][0] + w[1] * X[i][1] + w[2] > 0) == (label[i] > 0);
  printf("trained: w = (%.2f, %.2f, %.2f), loss %.3f, %d of %d correct\n",
         w[0], w[1], w[2], loss(w, N), correct, N);
  return ok && correct == N ? 0 : 1;
}
