# SPDX-License-Identifier: Apache-2.0
# KN_SANITIZERS: --enable-sanitizers (ASan + UBSan, every report fatal) and --enable-fuzzing
# (the clang libFuzzer targets under tests/fuzz, built with the sanitizers). The flags go to
# KN_SANITIZE_CFLAGS and KN_SANITIZE_LDFLAGS, which Makefile.am puts in AM_CFLAGS and
# AM_LDFLAGS; KN_FUZZ_LDFLAGS links the fuzz targets. The user's CFLAGS stay untouched.
AC_DEFUN([KN_SANITIZERS], [
  AC_ARG_ENABLE([sanitizers],
    [AS_HELP_STRING([--enable-sanitizers],
      [build with AddressSanitizer and UndefinedBehaviorSanitizer, every report fatal (for CI; off by default)])],
    [], [enable_sanitizers=no])
  AC_ARG_ENABLE([fuzzing],
    [AS_HELP_STRING([--enable-fuzzing],
      [also build the libFuzzer targets in tests/fuzz (needs clang; implies --enable-sanitizers; off by default)])],
    [], [enable_fuzzing=no])
  KN_SANITIZE_CFLAGS=""
  KN_FUZZ_LDFLAGS=""
  AS_IF([test "x$enable_fuzzing" = xyes], [enable_sanitizers=yes])
  AS_IF([test "x$enable_sanitizers" = xyes], [
    KN_SANITIZE_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
    AS_IF([test "x$enable_fuzzing" = xyes],
      [KN_SANITIZE_CFLAGS="$KN_SANITIZE_CFLAGS -fsanitize=fuzzer-no-link"])
    KN_LINK_CHECK([for $CC sanitizer support], [$KN_SANITIZE_CFLAGS], [AC_LANG_PROGRAM([], [])],
      [AC_MSG_ERROR([$CC cannot build with $KN_SANITIZE_CFLAGS; use gcc or clang with libasan and libubsan])])
  ])
  AS_IF([test "x$enable_fuzzing" = xyes], [
    KN_FUZZ_LDFLAGS="-fsanitize=fuzzer"
    KN_LINK_CHECK([for $CC libFuzzer support], [$KN_SANITIZE_CFLAGS $KN_FUZZ_LDFLAGS],
      [AC_LANG_SOURCE([[#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { (void)data; (void)size; return 0; }]])],
      [AC_MSG_ERROR([--enable-fuzzing needs clang with libFuzzer: configure CC=clang --enable-fuzzing])])
  ])
  KN_SANITIZE_LDFLAGS=$KN_SANITIZE_CFLAGS
  AC_SUBST([KN_SANITIZE_CFLAGS])
  AC_SUBST([KN_SANITIZE_LDFLAGS])
  AC_SUBST([KN_FUZZ_LDFLAGS])
  AM_CONDITIONAL([ENABLE_FUZZING], [test "x$enable_fuzzing" = xyes])
])

# KN_LINK_CHECK(MESSAGE, FLAGS, PROGRAM, [ACTION-IF-NOT])
# Can PROGRAM be compiled and linked with FLAGS added to both CFLAGS and LDFLAGS?
AC_DEFUN([KN_LINK_CHECK], [
  AC_MSG_CHECKING([$1])
  kn_save_CFLAGS=$CFLAGS
  kn_save_LDFLAGS=$LDFLAGS
  CFLAGS="$CFLAGS $2"
  LDFLAGS="$LDFLAGS $2"
  AC_LINK_IFELSE([$3], [kn_link_ok=yes], [kn_link_ok=no])
  CFLAGS=$kn_save_CFLAGS
  LDFLAGS=$kn_save_LDFLAGS
  AC_MSG_RESULT([$kn_link_ok])
  AS_IF([test "x$kn_link_ok" = xno], [$4])
])
