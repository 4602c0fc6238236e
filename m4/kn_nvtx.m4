# SPDX-License-Identifier: Apache-2.0
# KN_CHECK_NVTX
# Find the NVTX 3 headers with the payload and counters extensions and set
# NVTX_CFLAGS.  Search order: --with-nvtx=DIR (DIR or DIR/include),
# NVTX_CFLAGS, $CUDA_HOME/include, $CUDA_PATH/include, /usr/local/cuda/include,
# then the compiler's default include path.  A candidate counts only when a
# program calling nvtxCounterRegister() and nvtxPayloadSchemaRegister()
# compiles with it.
AC_DEFUN([KN_NVTX_TRY], [
  kn_save_CPPFLAGS=$CPPFLAGS
  CPPFLAGS="$CPPFLAGS $1"
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtPayload.h>
#include <nvtx3/nvToolsExtCounters.h>
#include <nvtx3/nvToolsExtSemanticsCounters.h>
]], [[
nvtxDomainHandle_t d = nvtxDomainCreateA("probe");
nvtxPayloadSchemaAttr_t s = {0};
nvtxCounterAttr_t a = {0};
nvtxSemanticsCounter_t sem = {{0}};
a.schemaId = nvtxPayloadSchemaRegister(d, &s);
a.semantics = &sem.header;
(void)nvtxCounterRegister(d, &a);
]])], [kn_nvtx_ok=yes], [kn_nvtx_ok=no])
  CPPFLAGS=$kn_save_CPPFLAGS
])

AC_DEFUN([KN_CHECK_NVTX], [
  AC_ARG_WITH([nvtx],
    [AS_HELP_STRING([--with-nvtx=DIR],
      [NVTX 3 headers are in DIR/nvtx3 or DIR/include/nvtx3 (default: search
       $CUDA_HOME, $CUDA_PATH, /usr/local/cuda and the default include path)])],
    [], [with_nvtx=])
  AC_ARG_VAR([NVTX_CFLAGS], [C preprocessor flags for the NVTX 3 headers, e.g. -I/opt/nvtx/include])
  AS_CASE([$with_nvtx], [no], [AC_MSG_ERROR([NVTX cannot be disabled: the plugin speaks NVTX])], [yes], [with_nvtx=])

  kn_nvtx_tried=""
  kn_nvtx_found=no
  AC_MSG_CHECKING([for NVTX 3 headers with the payload and counters extensions])
  AS_IF([test -n "$with_nvtx"], [
    for kn_dir in "$with_nvtx" "$with_nvtx/include"; do
      kn_nvtx_tried="$kn_nvtx_tried $kn_dir"
      test -f "$kn_dir/nvtx3/nvToolsExtCounters.h" || continue
      KN_NVTX_TRY([-I$kn_dir])
      AS_IF([test "x$kn_nvtx_ok" = xyes], [NVTX_CFLAGS="-I$kn_dir"; kn_nvtx_found=yes; break])
    done
  ], [test -n "$NVTX_CFLAGS"], [
    kn_nvtx_tried="NVTX_CFLAGS=$NVTX_CFLAGS"
    KN_NVTX_TRY([$NVTX_CFLAGS])
    kn_nvtx_found=$kn_nvtx_ok
  ], [
    for kn_dir in ${CUDA_HOME:+"$CUDA_HOME/include"} ${CUDA_PATH:+"$CUDA_PATH/include"} /usr/local/cuda/include; do
      kn_nvtx_tried="$kn_nvtx_tried $kn_dir"
      test -f "$kn_dir/nvtx3/nvToolsExtCounters.h" || continue
      KN_NVTX_TRY([-I$kn_dir])
      AS_IF([test "x$kn_nvtx_ok" = xyes], [NVTX_CFLAGS="-I$kn_dir"; kn_nvtx_found=yes; break])
    done
    AS_IF([test "x$kn_nvtx_found" = xno], [
      kn_nvtx_tried="$kn_nvtx_tried (default include path)"
      KN_NVTX_TRY([])
      kn_nvtx_found=$kn_nvtx_ok
      NVTX_CFLAGS=""])
  ])
  AS_IF([test "x$kn_nvtx_found" = xyes],
    [AC_MSG_RESULT([${NVTX_CFLAGS:-default include path}])],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([NVTX 3 headers with the payload and counters extensions
  (nvtx3/nvToolsExtCounters.h, nvtx3/nvToolsExtPayload.h,
  nvtx3/nvToolsExtSemanticsCounters.h) were not found or did not compile.
  Looked in:$kn_nvtx_tried
  Fix: install a recent CUDA toolkit or the NVTX 3 headers
  (https://github.com/NVIDIA/NVTX, c/include), then pass --with-nvtx=DIR,
  set NVTX_CFLAGS=-IDIR, or set CUDA_HOME.])])
  AC_SUBST([NVTX_CFLAGS])
])
