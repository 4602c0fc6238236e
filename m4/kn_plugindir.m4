# SPDX-License-Identifier: Apache-2.0
# KN_PLUGINDIR
# Choose the folder that receives kvikio_nic_nsys_plugin and nsys-plugin.yaml.
# --with-plugindir=DIR wins; --with-nsys=NSYS_ROOT installs into that nsys's own
# plugin folder (nsys older than 2026.2.1 looks nowhere else); the default is
# a make-expanded ${libdir}/kvikio-nic/nsys-plugins/kvikio_nic.  Not under
# libexecdir: the manifest (a data file) must sit beside the executable, and
# packaging tools make every file under /usr/libexec executable (debhelper's
# dh_fixperms), while FHS 3.0 lets an application's /usr/lib subfolder hold
# both its internal binaries and its architecture-dependent data.  ${libdir}
# rather than ${prefix}/lib follows the distribution's choice: Debian's
# multiarch libdir (/usr/lib/x86_64-linux-gnu) lets the x64 and aarch64
# builds be installed side by side, each with its kvikio-nic.pc (also in
# ${libdir}) naming its own folder.  The build machine is never probed.
AC_DEFUN([KN_PLUGINDIR], [
  AC_ARG_WITH([plugindir],
    [AS_HELP_STRING([--with-plugindir=DIR],
      [install the plugin folder as DIR (default: LIBDIR/kvikio-nic/nsys-plugins/kvikio_nic)])],
    [], [with_plugindir=])
  AC_ARG_WITH([nsys],
    [AS_HELP_STRING([--with-nsys=NSYS_ROOT],
      [install into NSYS_ROOT/target-linux-x64/plugins/kvikio_nic, for nsys older than 2026.2.1])],
    [], [with_nsys=])
  AS_CASE([$with_plugindir], [yes|no], [AC_MSG_ERROR([--with-plugindir needs a folder])])
  AS_CASE([$with_nsys], [yes|no], [AC_MSG_ERROR([--with-nsys needs the nsys installation folder (NSYS_ROOT)])])
  AS_IF([test -n "$with_plugindir" && test -n "$with_nsys"],
    [AC_MSG_ERROR([give --with-plugindir or --with-nsys, not both])])
  AS_IF([test -n "$with_plugindir"], [plugindir=$with_plugindir],
        [test -n "$with_nsys"], [plugindir="$with_nsys/target-linux-x64/plugins/kvikio_nic"],
        [plugindir='${libdir}/kvikio-nic/nsys-plugins/kvikio_nic'])
  AC_SUBST([plugindir])
])
