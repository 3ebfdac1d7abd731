# Fails when a file of one layer includes a header from a folder its layer
# may not use. Run by vouch_layer() (CMakeLists.txt) before the layer is built:
#   cmake -DLAYER=vouch_store -DROOT=<source dir> -DFILES="store/*.?pp"
#         -DALLOWS="store|events|base|log" -P check_layering.cmake
# FILES are globs relative to ROOT; ALLOWS are folders, "x/**" meaning x and
# every folder below it. Only quoted includes ("folder/file.hpp") are the
# project's; system and library headers use <>.
string(REPLACE "|" ";" globs "${FILES}")
string(REPLACE "|" ";" allows "${ALLOWS}")
list(TRANSFORM globs PREPEND "${ROOT}/")
file(GLOB files RELATIVE "${ROOT}" ${globs})

set(wrong "")
foreach(file IN LISTS files)
  file(STRINGS "${ROOT}/${file}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]*)\".*$" "\\1" header "${line}")
    get_filename_component(folder "${header}" DIRECTORY)
    set(allowed FALSE)
    foreach(allow IN LISTS allows)
      if(allow MATCHES "^(.*)/\\*\\*$")
        set(top "${CMAKE_MATCH_1}")
        if(folder STREQUAL top OR folder MATCHES "^${top}/")
          set(allowed TRUE)
        endif()
      elseif(folder STREQUAL allow)
        set(allowed TRUE)
      endif()
    endforeach()
    if(NOT allowed)
      string(APPEND wrong "  ${file}: #include \"${header}\"\n")
    endif()
  endforeach()
endforeach()

if(wrong)
  string(REPLACE ";" ", " readable "${allows}")
  message(FATAL_ERROR "layering: ${LAYER} may include only from ${readable}, but\n${wrong}")
endif()
