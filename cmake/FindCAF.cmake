# Finds the C++ Actor Framework as Debian packages it (libcaf-dev 0.17), which
# ships headers and shared libraries but no CMake package configuration.
#
# Defines the imported targets CAF::core, CAF::io and CAF::openssl.

find_path(CAF_INCLUDE_DIR NAMES caf/all.hpp)
find_library(CAF_CORE_LIBRARY NAMES caf_core)
find_library(CAF_IO_LIBRARY NAMES caf_io)
find_library(CAF_OPENSSL_LIBRARY NAMES caf_openssl)

if(CAF_INCLUDE_DIR AND EXISTS "${CAF_INCLUDE_DIR}/caf/config.hpp")
  file(STRINGS "${CAF_INCLUDE_DIR}/caf/config.hpp" _caf_version_line
       REGEX "^#define CAF_VERSION [0-9]+")
  string(REGEX REPLACE "^#define CAF_VERSION ([0-9]+).*" "\\1" _caf_version "${_caf_version_line}")
  math(EXPR _caf_major "${_caf_version} / 10000")
  math(EXPR _caf_minor "(${_caf_version} / 100) % 100")
  math(EXPR _caf_patch "${_caf_version} % 100")
  set(CAF_VERSION "${_caf_major}.${_caf_minor}.${_caf_patch}")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(CAF
  REQUIRED_VARS CAF_INCLUDE_DIR CAF_CORE_LIBRARY CAF_IO_LIBRARY CAF_OPENSSL_LIBRARY
  VERSION_VAR CAF_VERSION)

# _caf_imported(NAME LIBRARY DEPENDENCIES): the imported target CAF::NAME for
# the shared library LIBRARY, linking DEPENDENCIES; kept when it exists.
function(_caf_imported name library dependencies)
  if(NOT TARGET CAF::${name})
    add_library(CAF::${name} SHARED IMPORTED)
    set_target_properties(CAF::${name} PROPERTIES
      IMPORTED_LOCATION "${library}"
      INTERFACE_INCLUDE_DIRECTORIES "${CAF_INCLUDE_DIR}"
      INTERFACE_LINK_LIBRARIES "${dependencies}")
  endif()
endfunction()

if(CAF_FOUND)
  find_package(Threads REQUIRED)
  find_package(OpenSSL REQUIRED)
  _caf_imported(core "${CAF_CORE_LIBRARY}" Threads::Threads)
  _caf_imported(io "${CAF_IO_LIBRARY}" CAF::core)
  _caf_imported(openssl "${CAF_OPENSSL_LIBRARY}" "CAF::io;OpenSSL::SSL;OpenSSL::Crypto")
endif()

mark_as_advanced(CAF_INCLUDE_DIR CAF_CORE_LIBRARY CAF_IO_LIBRARY CAF_OPENSSL_LIBRARY)
