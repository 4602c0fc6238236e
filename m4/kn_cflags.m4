# SPDX-License-Identifier: Apache-2.0
# KN_CHECK_CFLAG(FLAG, [ACTION-IF-OK], [ACTION-IF-NOT])
# Does the C compiler accept FLAG (with -Werror, so that a warning about an
# unknown flag counts as a refusal)?  The user's CFLAGS are left untouched.
AC_DEFUN([KN_CHECK_CFLAG], [
  AS_VAR_PUSHDEF([kn_cache], [kn_cv_cflag_$1])
  AC_CACHE_CHECK([whether $CC accepts $1], [kn_cache], [
    kn_save_CFLAGS=$CFLAGS
    CFLAGS="$CFLAGS -Werror $1"
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
                      [AS_VAR_SET([kn_cache], [yes])], [AS_VAR_SET([kn_cache], [no])])
    CFLAGS=$kn_save_CFLAGS])
  AS_VAR_IF([kn_cache], [yes], [$2], [$3])
  AS_VAR_POPDEF([kn_cache])
])
