//===- FortranRuntime.cpp - Differentiable models of flang's runtime ------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// flang lowers MATMUL, most reductions and assignments to allocatable arrays
// to calls into its runtime library (libFortranRuntime), which is native code
// without IR: AD cannot look inside. This file gives those entry points
// bodies that AD can differentiate. It is compiled to bitcode when Adjoint is
// built and embedded in the plugin (lib/Preprocess/LibraryModels.cpp); when a
// function being differentiated calls `_FortranAX`, the call is redirected to
// `__adjoint_model__FortranAX` defined here, which is then inlined and
// differentiated like the user's own code. The program's other calls keep
// using the real runtime.
//
// A model computes what the runtime computes, in the same order, so that the
// primal results inside a gradient are the program's own (SUM's Kahan
// summation, MATMUL's sums in ascending order, MAXVAL's handling of NaN).
// The compile flags (LibraryModels' CMake rule) forbid FMA contraction and
// vectorization for the same reason, and to keep the IR simple for AD.
//
// The runtime's functions of every type (Assign, SumDim, ...) have models
// for REAL data (and, those that only move data, for COMPLEX data) only:
// the plugin uses them where it knows the type (FortranDescriptors.cpp),
// and leaves the other calls to the runtime.
//
// Descriptors are ISO_Fortran_binding.h's CFI_cdesc_t, which is the layout
// of flang's descriptors. Element (i0, i1, ...) of an array (zero-based) is
// at base_addr + i0 * dim[0].sm + i1 * dim[1].sm + ...; elements are visited
// in Fortran's array element order: dimension 0 innermost.
//
// Every model is named __adjoint_model_<runtime name>.
//
//===----------------------------------------------------------------------===//

#include <ISO_Fortran_binding.h>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>

using Desc = CFI_cdesc_t;
using Index = CFI_index_t;

#define MODEL(Name) __adjoint_model__Fortran##Name

extern "C" {
// Prints "fatal Fortran runtime error(file:line): message" and aborts, as
// the runtime does for what the program may not do.
[[noreturn]] void _FortranAReportFatalUserError(const char *Message,
                                                const char *File, int Line);
}

namespace {

//===----------------------------------------------------------------------===//
// Walking arrays
//===----------------------------------------------------------------------===//

// Ranks up to 3 are visited with constant indices into `dim`; only higher
// ranks loop over the dimensions. Once a model is inlined where flang
// built the descriptor on the stack with a constant rank, the loop folds
// away, and SROA can turn the descriptor into registers (a variable index
// into `dim` would keep it in memory, where AD would have to give it a
// shadow).

Index extent(const Desc *A, int K) { return A->dim[K].extent; }

/// The highest rank whose dimensions are visited with constant indices.
constexpr int UnrolledRank = 3;

/// Calls \p Visit(K) for K = \p First .. rank - 1.
template <typename Fn>
void forEachDimension(const Desc *A, int First, Fn Visit) {
  int Rank = A->rank;
  if (Rank > UnrolledRank) {
    for (int K = First; K < Rank; ++K)
      Visit(K);
    return;
  }
#pragma clang loop unroll(full)
  for (int K = 0; K != UnrolledRank; ++K)
    if (First <= K && K < Rank)
      Visit(K);
}

/// The product of the extents of dimensions \p First .. rank - 1.
Index extentProduct(const Desc *A, int First) {
  Index N = 1;
  forEachDimension(A, First, [&](int K) { N *= extent(A, K); });
  return N;
}

Index elementCount(const Desc *A) { return extentProduct(A, 0); }

/// Elements along dimension 0: a "column".
Index columnLength(const Desc *A) { return A->rank == 0 ? 1 : extent(A, 0); }
Index columnStride(const Desc *A) { return A->rank == 0 ? 0 : A->dim[0].sm; }

/// How many columns (the product of the other extents).
Index columnCount(const Desc *A) { return extentProduct(A, 1); }

/// Byte offset of column \p C (numbered in array element order).
Index columnOffset(const Desc *A, Index C) {
  Index Offset = 0;
  forEachDimension(A, 1, [&](int K) {
    // The last dimension needs no division.
    Index Subscript = K + 1 == A->rank ? C : C % extent(A, K);
    Offset += Subscript * A->dim[K].sm;
    C /= extent(A, K);
  });
  return Offset;
}

char *columnStart(const Desc *A, Index C) {
  return static_cast<char *>(A->base_addr) + columnOffset(A, C);
}

/// Is the LOGICAL element at \p P true? Any kind of LOGICAL: true is any
/// non-zero value.
bool isTrue(const Desc *Mask, const char *P) {
  switch (Mask->elem_len) {
  case 1:
    return *reinterpret_cast<const int8_t *>(P) != 0;
  case 2:
    return *reinterpret_cast<const int16_t *>(P) != 0;
  case 4:
    return *reinterpret_cast<const int32_t *>(P) != 0;
  default:
    return *reinterpret_cast<const int64_t *>(P) != 0;
  }
}

/// Is element \p I of column \p C of \p Mask true? A scalar mask applies
/// to all elements, no mask selects them all.
bool maskAt(const Desc *Mask, Index C, Index I) {
  if (!Mask)
    return true;
  const char *P = static_cast<const char *>(Mask->base_addr);
  if (Mask->rank != 0)
    P = columnStart(Mask, C) + I * columnStride(Mask);
  return isTrue(Mask, P);
}

/// Calls \p Visit on every element of \p A, as T, that \p Mask selects.
template <typename T, typename Fn>
void forEachElement(const Desc *A, const Desc *Mask, Fn Visit) {
  Index Columns = columnCount(A), Length = columnLength(A),
        Stride = columnStride(A);
  for (Index C = 0; C < Columns; ++C) {
    char *Column = columnStart(A, C);
    for (Index I = 0; I < Length; ++I)
      if (maskAt(Mask, C, I))
        Visit(*reinterpret_cast<T *>(Column + I * Stride));
  }
}

/// Calls \p Visit on the address of every element of \p A, in array
/// element order.
template <typename Fn> void forEachElementAddress(const Desc *A, Fn Visit) {
  Index Columns = columnCount(A), Length = columnLength(A),
        Stride = columnStride(A);
  for (Index C = 0; C < Columns; ++C) {
    const char *Column = columnStart(A, C);
    for (Index I = 0; I < Length; ++I)
      Visit(Column + I * Stride);
  }
}

template <typename T> T &at(const Desc *A, Index I) {
  return *reinterpret_cast<T *>(static_cast<char *>(A->base_addr) +
                                I * A->dim[0].sm);
}

template <typename T> T &at(const Desc *A, Index I, Index J) {
  return *reinterpret_cast<T *>(static_cast<char *>(A->base_addr) +
                                I * A->dim[0].sm + J * A->dim[1].sm);
}

template <typename T> constexpr signed char typeCode();
template <> constexpr signed char typeCode<float>() { return CFI_type_float; }
template <> constexpr signed char typeCode<double>() { return CFI_type_double; }

/// Establishes \p R as a freshly allocated, contiguous array of rank
/// \p Rank (at most 3) and the given extents, with lower bounds 1, as the
/// runtime does for the results of transformational intrinsics. Its old
/// contents, if any, are not freed: flang passes an unallocated descriptor
/// and frees the result itself.
void allocateLike(Desc *R, int Rank, const Index *Extents, signed char Type,
                  size_t ElementBytes) {
  R->elem_len = ElementBytes;
  R->version = CFI_VERSION;
  R->rank = static_cast<CFI_rank_t>(Rank);
  R->type = Type;
  R->attribute = CFI_attribute_allocatable;
  Index Stride = ElementBytes;
  forEachDimension(R, 0, [&](int K) {
    R->dim[K].lower_bound = 1;
    R->dim[K].extent = Extents[K];
    R->dim[K].sm = Stride;
    Stride *= Extents[K];
  });
  R->base_addr = std::malloc(Stride > 0 ? Stride : 1);
}

template <typename T>
void allocateResult(Desc *R, int Rank, Index Extent0, Index Extent1) {
  Index Extents[2] = {Extent0, Extent1};
  allocateLike(R, Rank, Extents, typeCode<T>(), sizeof(T));
}

//===----------------------------------------------------------------------===//
// Reductions to a scalar: SUM, PRODUCT, MAXVAL, MINVAL, NORM2, DOT_PRODUCT
//===----------------------------------------------------------------------===//

// The accumulators of SUM, PRODUCT, MAXVAL and MINVAL, over a whole array
// or along a dimension.

/// Kahan summation, as the runtime does.
template <typename T> struct SumOf {
  T Sum = 0, Correction = 0;
  void add(T V) {
    T Next = V + Correction;
    T Old = Sum;
    Sum += Next;
    Correction = (Sum - Old) - Next;
  }
  T result() const { return Sum; }
};

template <typename T> struct ProductOf {
  T Product = 1;
  void add(T V) { Product *= V; }
  T result() const { return Product; }
};

/// MAXVAL (\p IsMax) or MINVAL: the first extreme element; a NaN found
/// first is replaced by the next element. -HUGE (HUGE) when no element
/// is selected.
template <typename T, bool IsMax> struct ExtremumOf {
  T Result =
      IsMax ? -std::numeric_limits<T>::max() : std::numeric_limits<T>::max();
  bool Any = false;
  void add(T V) {
    if (!Any || Result != Result || (IsMax ? V > Result : V < Result))
      Result = V;
    Any = true;
  }
  T result() const { return Result; }
};

template <typename Accumulator, typename T>
T reduce(const Desc *X, const Desc *Mask) {
  Accumulator A;
  forEachElement<T>(X, Mask, [&](T V) { A.add(V); });
  return A.result();
}

/// Floating-point reductions of REAL(4) data that the runtime carries out
/// in double precision (NORM2, DOT_PRODUCT).
template <typename T> struct Wide { using Type = T; };
template <> struct Wide<float> { using Type = double; };

/// NORM2 = M * sqrt(1 + S), where M is the largest magnitude so far and S
/// the sum of the squares of the others divided by M, so that the squares
/// neither overflow nor underflow (the runtime's scheme).
template <typename T> T norm2(const Desc *X) {
  using W = typename Wide<T>::Type;
  W Max = 0, Sum = 0;
  forEachElement<T>(X, nullptr, [&](T V) {
    W Magnitude = V < 0 ? -W(V) : W(V);
    if (Max == 0) {
      Max = Magnitude;
    } else if (Magnitude > Max) {
      W Ratio = Max / Magnitude;
      Sum = Sum * (Ratio * Ratio) + Ratio * Ratio;
      Max = Magnitude;
    } else {
      W Ratio = Magnitude / Max;
      Sum += Ratio * Ratio;
    }
  });
  return static_cast<T>(Max * __builtin_sqrt(static_cast<double>(1 + Sum)));
}

template <typename T> T dotProduct(const Desc *X, const Desc *Y) {
  using W = typename Wide<T>::Type;
  W Sum = 0;
  for (Index I = 0, N = extent(X, 0); I < N; ++I)
    Sum += W(at<T>(X, I)) * W(at<T>(Y, I));
  return static_cast<T>(Sum);
}

//===----------------------------------------------------------------------===//
// Reductions along a dimension: SUM(X, DIM), PRODUCT, MAXVAL, MINVAL
//===----------------------------------------------------------------------===//

/// The product of the extents of dimensions [First, Last) of \p A.
Index extentOver(const Desc *A, int First, int Last) {
  Index N = 1;
  forEachDimension(A, First, [&](int K) {
    if (K < Last)
      N *= extent(A, K);
  });
  return N;
}

/// The byte offset of the element numbered \p Linear (in array element
/// order) of the dimensions [First, Last) of \p A.
Index offsetOver(const Desc *A, int First, int Last, Index Linear) {
  Index Offset = 0;
  forEachDimension(A, First, [&](int K) {
    if (K >= Last)
      return;
    Offset += (Linear % extent(A, K)) * A->dim[K].sm;
    Linear /= extent(A, K);
  });
  return Offset;
}

/// The element of \p A (or of a scalar) numbered \p Before in the
/// dimensions before \p D and \p After in those after it, before moving
/// along \p D.
const char *lineStart(const Desc *A, int D, Index Before, Index After) {
  const char *P = static_cast<const char *>(A->base_addr);
  if (A->rank == 0)
    return P;
  return P + offsetOver(A, 0, D, Before) + offsetOver(A, D + 1, A->rank, After);
}

/// R = the reduction of X along dimension \p Dim (1-based): an array of
/// X's rank minus one, each element reducing one line of X in order.
template <typename Accumulator, typename T>
void reduceDim(Desc *R, const Desc *X, int Dim, const Desc *Mask) {
  int D = Dim - 1, Rank = X->rank;
  Index Kept[2] = {1, 1};
  int NumKept = 0;
  forEachDimension(X, 0, [&](int K) {
    if (K != D)
      Kept[NumKept++] = extent(X, K);
  });
  allocateResult<T>(R, Rank - 1, Kept[0], Kept[1]);
  Index Before = extentOver(X, 0, D), After = extentOver(X, D + 1, Rank),
        Length = extent(X, D), Stride = X->dim[D].sm,
        MaskStride = Mask && Mask->rank ? Mask->dim[D].sm : 0;
  T *Result = static_cast<T *>(R->base_addr);
  for (Index A = 0; A < After; ++A)
    for (Index B = 0; B < Before; ++B) {
      const char *Line = lineStart(X, D, B, A);
      const char *MaskLine = Mask ? lineStart(Mask, D, B, A) : nullptr;
      Accumulator Acc;
      for (Index I = 0; I < Length; ++I)
        if (!Mask || isTrue(Mask, MaskLine + I * MaskStride))
          Acc.add(*reinterpret_cast<const T *>(Line + I * Stride));
      Result[B + A * Before] = Acc.result();
    }
}

/// SUM, PRODUCT, MAXVAL or MINVAL with DIM= of a REAL array of rank up to 3
/// (its result has at most two dimensions; FortranDescriptors.cpp checks).
template <template <typename> class Accumulator>
void reduceDimReal(Desc *R, const Desc *X, int Dim, const Desc *Mask) {
  if (X->type == CFI_type_double)
    return reduceDim<Accumulator<double>, double>(R, X, Dim, Mask);
  reduceDim<Accumulator<float>, float>(R, X, Dim, Mask);
}

template <typename T> using MaxvalOf = ExtremumOf<T, true>;
template <typename T> using MinvalOf = ExtremumOf<T, false>;

//===----------------------------------------------------------------------===//
// MATMUL and MATMUL(TRANSPOSE(A), B)
//===----------------------------------------------------------------------===//

/// R = op(X) * Y where op(X) is X or, with \p TransposeX, its transpose.
/// Ranks: matrix * matrix, matrix * vector, vector * matrix (not with
/// TransposeX). Each element is a sum in ascending order of the inner
/// index, from zero, as the runtime computes it.
template <typename T, bool TransposeX>
void matmul(Desc *R, const Desc *X, const Desc *Y) {
  if (X->rank == 1) { // Vector * matrix: R(j) = sum_l X(l) Y(l, j).
    Index Inner = extent(X, 0), Cols = extent(Y, 1);
    allocateResult<T>(R, 1, Cols, 0);
    for (Index J = 0; J < Cols; ++J) {
      T Sum = 0;
      for (Index L = 0; L < Inner; ++L)
        Sum += at<T>(X, L) * at<T>(Y, L, J);
      at<T>(R, J) = Sum;
    }
    return;
  }
  Index Rows = extent(X, TransposeX ? 1 : 0),
        Inner = extent(X, TransposeX ? 0 : 1);
  auto XAt = [&](Index I, Index L) -> T {
    return TransposeX ? at<T>(X, L, I) : at<T>(X, I, L);
  };
  if (Y->rank == 1) { // Matrix * vector: R(i) = sum_l X(i, l) Y(l).
    allocateResult<T>(R, 1, Rows, 0);
    for (Index I = 0; I < Rows; ++I) {
      T Sum = 0;
      for (Index L = 0; L < Inner; ++L)
        Sum += XAt(I, L) * at<T>(Y, L);
      at<T>(R, I) = Sum;
    }
    return;
  }
  Index Cols = extent(Y, 1);
  allocateResult<T>(R, 2, Rows, Cols);
  for (Index J = 0; J < Cols; ++J)
    for (Index I = 0; I < Rows; ++I) {
      T Sum = 0;
      for (Index L = 0; L < Inner; ++L)
        Sum += XAt(I, L) * at<T>(Y, L, J);
      at<T>(R, I, J) = Sum;
    }
}

//===----------------------------------------------------------------------===//
// Assignment
//===----------------------------------------------------------------------===//

bool sameShape(const Desc *A, const Desc *B) {
  if (A->rank != B->rank)
    return false;
  bool Same = true;
  forEachDimension(A, 0, [&](int K) { Same &= extent(A, K) == extent(B, K); });
  return Same;
}

/// The bytes an array's elements span: [Low, High), empty without elements.
void byteRange(const Desc *A, uintptr_t &Low, uintptr_t &High) {
  Low = High = reinterpret_cast<uintptr_t>(A->base_addr);
  if (elementCount(A) <= 0)
    return;
  forEachDimension(A, 0, [&](int K) {
    Index Span = (extent(A, K) - 1) * A->dim[K].sm;
    (Span < 0 ? Low : High) += Span;
  });
  High += A->elem_len;
}

bool mayOverlap(const Desc *A, const Desc *B) {
  uintptr_t ALow, AHigh, BLow, BHigh;
  byteRange(A, ALow, AHigh);
  byteRange(B, BLow, BHigh);
  return ALow < BHigh && BLow < AHigh;
}

/// (Re)allocates the allocatable \p To with the shape and lower bounds of
/// \p From (Fortran 2003 semantics of intrinsic assignment to an
/// allocatable), unless it is allocated with that shape already.
void conformAllocatable(Desc *To, const Desc *From) {
  if (To->base_addr && sameShape(To, From))
    return;
  std::free(To->base_addr);
  Index Stride = From->elem_len;
  forEachDimension(From, 0, [&](int K) {
    To->dim[K].lower_bound = From->dim[K].lower_bound;
    To->dim[K].extent = extent(From, K);
    To->dim[K].sm = Stride;
    Stride *= extent(From, K);
  });
  To->base_addr = std::malloc(Stride > 0 ? Stride : 1);
}

/// What the elements that the copying models move are: REAL or COMPLEX
/// of kind 4 or 8.
struct Element {
  bool Double;  ///< Kind 8.
  bool Complex; ///< Two parts.
};

Element elementOf(const Desc *A) {
  return {A->type == CFI_type_double || A->type == CFI_type_double_Complex,
          A->type == CFI_type_float_Complex ||
              A->type == CFI_type_double_Complex};
}

/// Copies one element as what it is, floats or doubles, so that AD sees
/// what moves. (Once the model is inlined, the type is usually a constant
/// and the tests fold away.)
void copyElement(char *To, const char *From, Element E) {
  for (int Part = 0; Part != (E.Complex ? 2 : 1); ++Part) {
    if (E.Double)
      reinterpret_cast<double *>(To)[Part] =
          reinterpret_cast<const double *>(From)[Part];
    else
      reinterpret_cast<float *>(To)[Part] =
          reinterpret_cast<const float *>(From)[Part];
  }
}

/// Copies the elements of \p From into \p To (same shape, or \p From a
/// scalar), in array element order.
void copyElements(const Desc *To, const Desc *From, Element E) {
  Index Columns = columnCount(To), Length = columnLength(To),
        ToStride = columnStride(To), FromStride = columnStride(From);
  for (Index C = 0; C < Columns; ++C) {
    char *ToColumn = columnStart(To, C);
    const char *FromColumn = From->rank == 0
                                 ? static_cast<const char *>(From->base_addr)
                                 : columnStart(From, C);
    for (Index I = 0; I < Length; ++I)
      copyElement(ToColumn + I * ToStride, FromColumn + I * FromStride, E);
  }
}

/// Copies the elements of \p A, in array element order, to or from the
/// contiguous buffer \p Buffer.
void transfer(const Desc *A, char *Buffer, bool ToBuffer, Element E) {
  Index Columns = columnCount(A), Length = columnLength(A),
        Stride = columnStride(A), Size = A->elem_len;
  for (Index C = 0; C < Columns; ++C) {
    char *Column = columnStart(A, C);
    for (Index I = 0; I < Length; ++I, Buffer += Size) {
      char *Element = Column + I * Stride;
      if (ToBuffer)
        copyElement(Buffer, Element, E);
      else
        copyElement(Element, Buffer, E);
    }
  }
}

/// Intrinsic assignment of a REAL or COMPLEX array or scalar \p From to
/// \p To.
void assignElements(Desc *To, const Desc *From, Element E, const char *File,
                    int Line) {
  if (From->rank != 0 && To->attribute == CFI_attribute_allocatable)
    conformAllocatable(To, From);
  else if (!To->base_addr)
    _FortranAReportFatalUserError("assignment to an unallocated allocatable",
                                  File, Line);
  if (From->rank == 0 || !mayOverlap(To, From))
    return copyElements(To, From, E);
  // The sides overlap (X = X(N:1:-1)): read all of the right-hand side
  // before writing any of the left.
  Index Bytes = elementCount(From) * From->elem_len;
  char *Buffer = static_cast<char *>(std::malloc(Bytes > 0 ? Bytes : 1));
  transfer(From, Buffer, /*ToBuffer=*/true, E);
  transfer(To, Buffer, /*ToBuffer=*/false, E);
  std::free(Buffer);
}

//===----------------------------------------------------------------------===//
// Array constructors of run-time size
//===----------------------------------------------------------------------===//

/// Makes room in the rank-1 array \p To for \p Needed elements, keeping
/// the first \p Kept. Unallocated, it is allocated with the extent flang
/// set (the constructor's final extent, when known) if that is enough;
/// allocated by the constructor, it grows to twice its size; a variable
/// that flang lets the constructor fill in place never has to grow.
void reserve(Desc *To, Index &Capacity, Index Kept, Index Needed, Element E,
             const char *File, int Line) {
  if (To->base_addr && Needed <= Capacity)
    return;
  if (To->base_addr && To->attribute != CFI_attribute_allocatable)
    _FortranAReportFatalUserError("array constructor overflows its variable",
                                  File, Line);
  Index NewCapacity = To->base_addr ? 2 * Capacity : extent(To, 0);
  if (NewCapacity < Needed)
    NewCapacity = Needed;
  Index Size = To->elem_len;
  char *Block = static_cast<char *>(
      std::malloc(NewCapacity > 0 ? NewCapacity * Size : 1));
  for (Index I = 0; I < Kept; ++I)
    copyElement(Block + I * Size,
                static_cast<char *>(To->base_addr) + I * To->dim[0].sm, E);
  std::free(To->base_addr);
  To->base_addr = Block;
  To->dim[0].lower_bound = 1;
  To->dim[0].sm = Size;
  Capacity = NewCapacity;
}

//===----------------------------------------------------------------------===//
// Data movement: TRANSPOSE, SPREAD, RESHAPE, CSHIFT
//===----------------------------------------------------------------------===//

/// The element of \p A at zero-based subscripts (\p I, \p J, \p K), as
/// far as its rank goes.
char *elementAt(const Desc *A, Index I, Index J = 0, Index K = 0) {
  Index Subscripts[3] = {I, J, K};
  Index Offset = 0;
  forEachDimension(A, 0,
                   [&](int D) { Offset += Subscripts[D] * A->dim[D].sm; });
  return static_cast<char *>(A->base_addr) + Offset;
}

/// R = TRANSPOSE(M), a new array.
void transpose(Desc *R, const Desc *M) {
  Index Extents[2] = {extent(M, 1), extent(M, 0)};
  allocateLike(R, 2, Extents, M->type, M->elem_len);
  Element E = elementOf(M);
  for (Index J = 0; J < Extents[1]; ++J)
    for (Index I = 0; I < Extents[0]; ++I)
      copyElement(elementAt(R, I, J), elementAt(M, J, I), E);
}

/// R = SPREAD(S, Dim, Copies) for S of rank up to 2: S's elements repeated
/// along a new dimension Dim (1-based).
void spread(Desc *R, const Desc *S, int Dim, Index Copies) {
  int D = Dim - 1, Rank = S->rank + 1;
  // S's extents, with the copies inserted at D.
  Index Extents[3] = {1, 1, 1};
  forEachDimension(S, 0,
                   [&](int K) { Extents[K < D ? K : K + 1] = extent(S, K); });
  Extents[D] = Copies > 0 ? Copies : 0;
  allocateLike(R, Rank, Extents, S->type, S->elem_len);
  Element E = elementOf(S);
  for (Index K = 0; K < Extents[2]; ++K)
    for (Index J = 0; J < Extents[1]; ++J)
      for (Index I = 0; I < Extents[0]; ++I) {
        // Drop the subscript along D to find the source element.
        Index At[3] = {I, J, K}, Source[2] = {0, 0};
        for (int From = 0, To = 0; From != Rank; ++From)
          if (From != D)
            Source[To++] = At[From];
        copyElement(elementAt(R, I, J, K), elementAt(S, Source[0], Source[1]),
                    E);
      }
}

/// An element of an INTEGER array, of any kind.
Index integerAt(const Desc *A, Index I) {
  const char *P = elementAt(A, I);
  switch (A->elem_len) {
  case 1:
    return *reinterpret_cast<const int8_t *>(P);
  case 2:
    return *reinterpret_cast<const int16_t *>(P);
  case 4:
    return *reinterpret_cast<const int32_t *>(P);
  default:
    return *reinterpret_cast<const int64_t *>(P);
  }
}

/// R = RESHAPE(S, Shape) without PAD= and ORDER=, to a rank up to 3: the
/// elements of S in array element order.
void reshape(Desc *R, const Desc *S, const Desc *Shape, const char *File,
             int Line) {
  Index Extents[3] = {1, 1, 1};
  int Rank = static_cast<int>(extent(Shape, 0));
  for (int K = 0; K != Rank; ++K)
    Extents[K] = integerAt(Shape, K);
  if (Extents[0] * Extents[1] * Extents[2] > elementCount(S))
    _FortranAReportFatalUserError("RESHAPE: SOURCE is too small", File, Line);
  allocateLike(R, Rank, Extents, S->type, S->elem_len);
  Element E = elementOf(S);
  char *To = static_cast<char *>(R->base_addr);
  Index Count = elementCount(R), Next = 0, Size = S->elem_len;
  forEachElementAddress(S, [&](const char *From) {
    if (Next < Count)
      copyElement(To + Size * Next++, From, E);
  });
}

/// R = CSHIFT(V, Shift) of a vector: R(i) = V(i + Shift), circularly.
void cshiftVector(Desc *R, const Desc *V, Index Shift) {
  Index N = extent(V, 0);
  allocateLike(R, 1, &N, V->type, V->elem_len);
  Element E = elementOf(V);
  for (Index I = 0; I < N; ++I) {
    Index From = N ? (I + Shift) % N : 0;
    copyElement(elementAt(R, I), elementAt(V, From < 0 ? From + N : From), E);
  }
}

//===----------------------------------------------------------------------===//
// MAXLOC and MINLOC of REAL arrays, without DIM=
//===----------------------------------------------------------------------===//

/// Does \p Value replace \p Best as MAXLOC's (\p IsMax) or MINLOC's pick?
/// NaNs are never picked over a number; equal values only with BACK=.
template <typename T, bool IsMax> bool better(T Value, T Best, bool Back) {
  if (Value != Value)
    return false;
  if (Value == Best)
    return Back;
  if (Best != Best)
    return true;
  return IsMax ? Value > Best : Value < Best;
}

/// R = MAXLOC(X) (or MINLOC): a new INTEGER vector of KIND \p Kind with
/// the subscripts (from 1) of the picked element, zeros if none is
/// selected.
template <typename T, bool IsMax>
void location(Desc *R, const Desc *X, int Kind, const Desc *Mask, bool Back) {
  Index Found = -1, Linear = 0;
  T Best = 0;
  Index Columns = columnCount(X), Length = columnLength(X),
        Stride = columnStride(X);
  for (Index C = 0; C < Columns; ++C) {
    const char *Column = columnStart(X, C);
    for (Index I = 0; I < Length; ++I, ++Linear) {
      if (!maskAt(Mask, C, I))
        continue;
      T Value = *reinterpret_cast<const T *>(Column + I * Stride);
      if (Found < 0 || better<T, IsMax>(Value, Best, Back)) {
        Found = Linear;
        Best = Value;
      }
    }
  }
  Index Rank = X->rank;
  signed char Type = Kind == 1   ? CFI_type_int8_t
                     : Kind == 2 ? CFI_type_int16_t
                     : Kind == 4 ? CFI_type_int32_t
                                 : CFI_type_int64_t;
  allocateLike(R, 1, &Rank, Type, Kind);
  forEachDimension(X, 0, [&](int K) {
    Index Subscript = Found < 0 ? 0 : Found % extent(X, K) + 1;
    if (Found >= 0)
      Found /= extent(X, K);
    char *P = static_cast<char *>(R->base_addr) + K * Kind;
    switch (Kind) {
    case 1:
      *reinterpret_cast<int8_t *>(P) = static_cast<int8_t>(Subscript);
      break;
    case 2:
      *reinterpret_cast<int16_t *>(P) = static_cast<int16_t>(Subscript);
      break;
    case 4:
      *reinterpret_cast<int32_t *>(P) = static_cast<int32_t>(Subscript);
      break;
    default:
      *reinterpret_cast<int64_t *>(P) = Subscript;
    }
  });
}

//===----------------------------------------------------------------------===//
// MOD and MODULO of REAL numbers
//===----------------------------------------------------------------------===//

/// MOD(A, P) (or MODULO) as the runtime computes it, by fmod, which AD
/// differentiates (1 in A, -AINT(A/P) in P). The runtime computes integral
/// arguments with integers first: the same value, but a path without a
/// derivative.
template <typename T, bool Modulo> T mod(T A, T P, const char *File, int Line) {
  if (P == 0)
    _FortranAReportFatalUserError(Modulo ? "MODULO with P==0" : "MOD with P==0",
                                  File, Line);
  if (A != A || P != P || __builtin_isinf(A) || (Modulo && __builtin_isinf(P)))
    return std::numeric_limits<T>::quiet_NaN();
  T Result = __builtin_fmod(A, P);
  if (Modulo && (A < 0) != (P < 0))
    Result = Result == 0 ? -Result : Result + P;
  return Result;
}

} // namespace

/// flang 19's ArrayConstructorVector (flang/Runtime/array-constructor.h),
/// whose storage flang allocates (the models keep the runtime's layout).
struct ArrayConstructorVector {
  Desc *To;
  Index NextValuePosition;
  Index ActualAllocationSize;
  const char *SourceFile;
  int SourceLine;
  unsigned char UseValueLengthParameters : 1;
};

namespace {

/// Pushes \p Count elements, those of \p From (or the scalar at
/// \p Scalar), to the end of the constructor's array.
void pushElements(ArrayConstructorVector *V, const Desc *From,
                  const char *Scalar, Index Count) {
  Desc *To = V->To;
  Element E = elementOf(To);
  Index Next = V->NextValuePosition;
  reserve(To, V->ActualAllocationSize, Next, Next + Count, E, V->SourceFile,
          V->SourceLine);
  char *Base = static_cast<char *>(To->base_addr);
  Index Stride = To->dim[0].sm;
  if (Scalar) {
    copyElement(Base + Next * Stride, Scalar, E);
  } else {
    Index Columns = columnCount(From), Length = columnLength(From),
          FromStride = columnStride(From), At = Next;
    for (Index C = 0; C < Columns; ++C) {
      const char *Column = columnStart(From, C);
      for (Index I = 0; I < Length; ++I, ++At)
        copyElement(Base + At * Stride, Column + I * FromStride, E);
    }
  }
  V->NextValuePosition = Next + Count;
  if (extent(To, 0) < Next + Count)
    To->dim[0].extent = Next + Count;
}

} // namespace

//===----------------------------------------------------------------------===//
// The models
//===----------------------------------------------------------------------===//

extern "C" {

#define REDUCTIONS(Kind, T)                                                    \
  T MODEL(ASumReal##Kind)(const Desc *X, const char *, int, int,               \
                          const Desc *Mask) {                                  \
    return reduce<SumOf<T>, T>(X, Mask);                                       \
  }                                                                            \
  T MODEL(AProductReal##Kind)(const Desc *X, const char *, int, int,           \
                              const Desc *Mask) {                              \
    return reduce<ProductOf<T>, T>(X, Mask);                                   \
  }                                                                            \
  T MODEL(AMaxvalReal##Kind)(const Desc *X, const char *, int, int,            \
                             const Desc *Mask) {                               \
    return reduce<ExtremumOf<T, true>, T>(X, Mask);                            \
  }                                                                            \
  T MODEL(AMinvalReal##Kind)(const Desc *X, const char *, int, int,            \
                             const Desc *Mask) {                               \
    return reduce<ExtremumOf<T, false>, T>(X, Mask);                           \
  }                                                                            \
  T MODEL(ANorm2_##Kind)(const Desc *X, const char *, int, int) {              \
    return norm2<T>(X);                                                        \
  }                                                                            \
  T MODEL(ADotProductReal##Kind)(const Desc *X, const Desc *Y, const char *,   \
                                 int) {                                        \
    return dotProduct<T>(X, Y);                                                \
  }                                                                            \
  void MODEL(AMatmulReal##Kind##Real##Kind)(                                   \
      Desc * R, const Desc *X, const Desc *Y, const char *, int) {             \
    matmul<T, false>(R, X, Y);                                                 \
  }                                                                            \
  void MODEL(AMatmulTransposeReal##Kind##Real##Kind)(                          \
      Desc * R, const Desc *X, const Desc *Y, const char *, int) {             \
    matmul<T, true>(R, X, Y);                                                  \
  }

REDUCTIONS(4, float)
REDUCTIONS(8, double)

#define LOCATIONS(Kind, T)                                                     \
  void MODEL(AMaxlocReal##Kind)(Desc * R, const Desc *X, int ResultKind,       \
                                const char *, int, const Desc *Mask,           \
                                bool Back) {                                   \
    location<T, true>(R, X, ResultKind, Mask, Back);                           \
  }                                                                            \
  void MODEL(AMinlocReal##Kind)(Desc * R, const Desc *X, int ResultKind,       \
                                const char *, int, const Desc *Mask,           \
                                bool Back) {                                   \
    location<T, false>(R, X, ResultKind, Mask, Back);                          \
  }

LOCATIONS(4, float)
LOCATIONS(8, double)

float MODEL(AModReal4)(float A, float P, const char *File, int Line) {
  return mod<float, false>(A, P, File, Line);
}
double MODEL(AModReal8)(double A, double P, const char *File, int Line) {
  return mod<double, false>(A, P, File, Line);
}
float MODEL(AModuloReal4)(float A, float P, const char *File, int Line) {
  return mod<float, true>(A, P, File, Line);
}
double MODEL(AModuloReal8)(double A, double P, const char *File, int Line) {
  return mod<double, true>(A, P, File, Line);
}

void MODEL(ASumDim)(Desc *R, const Desc *X, int Dim, const char *, int,
                    const Desc *Mask) {
  reduceDimReal<SumOf>(R, X, Dim, Mask);
}

void MODEL(AProductDim)(Desc *R, const Desc *X, int Dim, const char *, int,
                        const Desc *Mask) {
  reduceDimReal<ProductOf>(R, X, Dim, Mask);
}

void MODEL(AMaxvalDim)(Desc *R, const Desc *X, int Dim, const char *, int,
                       const Desc *Mask) {
  reduceDimReal<MaxvalOf>(R, X, Dim, Mask);
}

void MODEL(AMinvalDim)(Desc *R, const Desc *X, int Dim, const char *, int,
                       const Desc *Mask) {
  reduceDimReal<MinvalOf>(R, X, Dim, Mask);
}

/// TRANSPOSE, SPREAD, RESHAPE (without PAD= and ORDER=) and CSHIFT of a
/// vector, of REAL or COMPLEX arrays, into new arrays.
void MODEL(ATranspose)(Desc *R, const Desc *M, const char *, int) {
  transpose(R, M);
}

void MODEL(ASpread)(Desc *R, const Desc *S, int Dim, int64_t Copies,
                    const char *, int) {
  spread(R, S, Dim, Copies);
}

void MODEL(AReshape)(Desc *R, const Desc *S, const Desc *Shape, const Desc *,
                     const Desc *, const char *File, int Line) {
  reshape(R, S, Shape, File, Line);
}

void MODEL(ACshiftVector)(Desc *R, const Desc *V, int64_t Shift, const char *,
                          int) {
  cshiftVector(R, V, Shift);
}

/// Intrinsic assignment of REAL and COMPLEX arrays (to allocatables, with
/// reallocation).
void MODEL(AAssign)(Desc *To, const Desc *From, const char *File, int Line) {
  assignElements(To, From, elementOf(From), File, Line);
}

/// Array constructors whose size flang cannot compute ([x, exp(x)],
/// implied DO loops) of REAL or COMPLEX values: flang allocates the
/// constructor's state, calls Init, then Push for each value.
void MODEL(AInitArrayConstructorVector)(ArrayConstructorVector *V, Desc *To,
                                        bool UseValueLengths, int,
                                        const char *File, int Line) {
  V->To = To;
  V->NextValuePosition = 0;
  V->ActualAllocationSize = To->base_addr ? elementCount(To) : 0;
  V->SourceFile = File;
  V->SourceLine = Line;
  V->UseValueLengthParameters = UseValueLengths;
}

void MODEL(APushArrayConstructorValue)(ArrayConstructorVector *V,
                                       const Desc *From) {
  pushElements(V, From, nullptr, elementCount(From));
}

void MODEL(APushArrayConstructorSimpleScalar)(ArrayConstructorVector *V,
                                              void *From) {
  pushElements(V, nullptr, static_cast<const char *>(From), 1);
}

/// ALLOCATE(A(...)) with STAT= or ERRMSG=, of REAL or COMPLEX arrays: flang
/// sets
/// the bounds with AllocatableSetBounds first. The runtime's allocation is
/// malloc, and DEALLOCATE (or the end of the scope) frees with free.
int MODEL(AAllocatableAllocate)(Desc *A, bool HasStat, const Desc *,
                                const char *File, int Line) {
  if (A->base_addr) {
    if (HasStat)
      return CFI_ERROR_BASE_ADDR_NOT_NULL;
    _FortranAReportFatalUserError("ALLOCATE of an allocated allocatable", File,
                                  Line);
  }
  Index Stride = A->elem_len;
  forEachDimension(A, 0, [&](int K) {
    A->dim[K].sm = Stride;
    Stride *= extent(A, K);
  });
  A->base_addr = std::malloc(Stride > 0 ? Stride : 1);
  return 0;
}

void MODEL(AAllocatableSetBounds)(Desc *A, int ZeroBasedDim, Index Lower,
                                  Index Upper) {
  forEachDimension(A, 0, [&](int K) {
    if (K != ZeroBasedDim)
      return;
    A->dim[K].lower_bound = Lower;
    A->dim[K].extent = Upper >= Lower ? Upper - Lower + 1 : 0;
  });
}

int MODEL(AAllocatableDeallocate)(Desc *A, bool HasStat, const Desc *,
                                  const char *File, int Line) {
  if (!A->base_addr) {
    if (HasStat)
      return CFI_ERROR_BASE_ADDR_NULL;
    _FortranAReportFatalUserError("DEALLOCATE of an unallocated allocatable",
                                  File, Line);
  }
  std::free(A->base_addr);
  A->base_addr = nullptr;
  return 0;
}

} // extern "C"
