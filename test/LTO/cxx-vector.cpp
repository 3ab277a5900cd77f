// The std::vector end-to-end test (e2e/cxx-vector.cpp) with AD at link
// time: lld's LTO pipeline leaves code the per-file pipelines do not, such
// as the end pointer of an empty vector computed from null
// (`gep double, ptr null, %n`), which was rejected as having no shadow.
// References: those of the e2e test.
// RUN: %clang --driver-mode=g++ -flto -O2 -c %S/../e2e/cxx-vector.cpp -o %t.o
// RUN: %clangxx-lto-link %t.o -o %t && %t
