/*===- adjoint/adjoint.h - Adjoint's user-facing API --------------*- C -*-===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* Declarations of the Enzyme-compatible C API that the Adjoint compiler      *|
|* plugin implements. Including this header is optional: code that declares   *|
|* these names itself, as Enzyme users do, works unchanged.                   *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef ADJOINT_ADJOINT_H
#define ADJOINT_ADJOINT_H

#ifdef __cplusplus
extern "C" {
#endif

/* Activity markers. Pass one before an argument to set that argument's
   activity. They are never defined by the user: the plugin resolves them. */
extern int enzyme_dup;       /* pointer followed by its shadow */
extern int enzyme_dupnoneed; /* as dup; primal results need not be written */
extern int enzyme_const;     /* not differentiated */
extern int enzyme_out;       /* active scalar by value; gradient returned */

/* Reverse mode: returns the gradients of the enzyme_out arguments (nothing,
   one scalar, or a struct of them in argument order) and accumulates the
   gradients of duplicated pointers into their shadows. Declare it with the
   return type you need, or use the typed C++ helper below. */
double __enzyme_autodiff(void *fn, ...);

/* Forward mode: returns the tangent of fn's floating-point result (nothing
   when fn returns anything else) and writes the tangents of what fn writes
   through duplicated pointers into their shadows. Each floating-point
   argument is followed by its tangent unless marked enzyme_const. */
double __enzyme_fwddiff(void *fn, ...);

/* Split reverse mode: __enzyme_augmentfwd does fn's work and returns the
   tape (with fn's result: declare it to return a struct of both);
   __enzyme_reverse takes fn's arguments, the adjoint of its result if
   floating-point, and the tape. */
void *__enzyme_augmentfwd(void *fn, ...);
void __enzyme_reverse(void *fn, ...);
int __enzyme_augmentsize(void *fn, ...);
extern int enzyme_tape;      /* split mode: the tape's buffer follows */
extern int enzyme_allocated; /* split mode: the buffer's size follows */

/* Custom derivatives. ADJOINT_CUSTOM_GRADIENT(f, f_aug, f_rev) makes the
   plugin call f_aug (f's work; returns a tape) and f_rev (accumulates f's
   derivatives from the tape) wherever it differentiates a call to f in
   reverse mode; ADJOINT_CUSTOM_DERIVATIVE(f, f_fwd) registers f's forward
   derivative. The signatures are checked at compile time; see the user
   guide, "Custom gradients" and "Forward mode". One registration per f. */
#define ADJOINT_CUSTOM_GRADIENT(f, f_aug, f_rev)                              \
  __attribute__((used)) void *__enzyme_register_gradient_##f[3] = {          \
      (void *)(f), (void *)(f_aug), (void *)(f_rev)}
#define ADJOINT_CUSTOM_DERIVATIVE(f, f_fwd)                                   \
  __attribute__((used)) void *__enzyme_register_derivative_##f[2] = {        \
      (void *)(f), (void *)(f_fwd)}

#ifdef __cplusplus
} /* extern "C" */

namespace adjoint {
/// Calls __enzyme_autodiff with return type \p R; e.g.
/// \code
///   struct G { double dx, dy; };
///   G g = adjoint::autodiff<G>(f, x, y);
/// \endcode
/// Always inlined, so that even at -O0 the plugin sees \p fn itself.
template <typename R, typename Fn, typename... Args>
__attribute__((always_inline)) inline R autodiff(Fn *fn, Args... args) {
  using Entry = R (*)(void *, ...);
  return reinterpret_cast<Entry>(&__enzyme_autodiff)(
      reinterpret_cast<void *>(fn), args...);
}

/// Calls __enzyme_fwddiff with return type \p R; e.g.
/// \code
///   double dy = adjoint::fwddiff<double>(f, x, dx, y, dy);
/// \endcode
template <typename R, typename Fn, typename... Args>
__attribute__((always_inline)) inline R fwddiff(Fn *fn, Args... args) {
  using Entry = R (*)(void *, ...);
  return reinterpret_cast<Entry>(&__enzyme_fwddiff)(
      reinterpret_cast<void *>(fn), args...);
}
} // namespace adjoint
#endif

#endif /* ADJOINT_ADJOINT_H */
