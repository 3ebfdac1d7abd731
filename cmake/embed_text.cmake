# cmake -DINPUT=file -DOUTPUT=file.cpp -DNAME=function -P embed_text.cmake
# Writes a C++ source defining `std::string_view vouch::NAME()` that returns
# the text of INPUT, as a raw string literal, so that the binary serves the
# repository's file byte for byte.
file(READ "${INPUT}" text)
set(delimiter "vouch_embedded")
string(FIND "${text}" ")${delimiter}\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw string delimiter )${delimiter}\"")
endif()
file(WRITE "${OUTPUT}.tmp"
  "// Generated from ${INPUT} by cmake/embed_text.cmake; do not edit.\n"
  "#include <string_view>\n"
  "namespace vouch {\n"
  "std::string_view ${NAME}() {\n"
  "  static constexpr std::string_view kText = R\"${delimiter}(${text})${delimiter}\";\n"
  "  return kText;\n"
  "}\n"
  "}  // namespace vouch\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
