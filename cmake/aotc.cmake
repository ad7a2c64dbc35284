# aotc.cmake: compile an HLO-family MLIR model with `aotc` at build time, as a library target.
#
#   include(path/to/aotc/cmake/aotc.cmake)
#   aotc_add_library(mymodel model.mlir [NAME n] [TARGET_TRIPLE t] [CPP_CLASS ns::C]
#                    [STATIC|SHARED])
#   target_link_libraries(app PRIVATE mymodel)   # NAME.h (and NAME.hpp), libNAME, -lm -lpthread -ldl
#
# `aotc compile` runs when the .mlir changes (or the artifact is missing), writing into
# ${CMAKE_CURRENT_BINARY_DIR}/aotc/<target>/: libNAME.so or libNAME.a, NAME.h, aot_runtime.h,
# aot_runtime.pc, and NAME.hpp with CPP_CLASS. <target> is an INTERFACE target wrapping the
# IMPORTED library <target>_artifact; it carries the include directory and the link libraries.
# NAME defaults to the file's stem made a C identifier. SHARED is the default. With
# TARGET_TRIPLE the artifact is for that CPU: build the program with a matching toolchain.
# The compiler is the cache variable AOTC_EXECUTABLE (default: `aotc` on PATH).
if(CMAKE_VERSION VERSION_LESS 3.19)
  message(FATAL_ERROR "aotc.cmake needs CMake 3.19 or newer (INTERFACE targets with properties)")
endif()

set(AOTC_EXECUTABLE "aotc" CACHE FILEPATH "the aotc executable (default: aotc on PATH)")

function(aotc_add_library target mlir)
  cmake_parse_arguments(PARSE_ARGV 2 AOTC "STATIC;SHARED" "NAME;TARGET_TRIPLE;CPP_CLASS" "")
  if(AOTC_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "aotc_add_library(${target}): unknown arguments: ${AOTC_UNPARSED_ARGUMENTS}")
  endif()
  if(AOTC_STATIC AND AOTC_SHARED)
    message(FATAL_ERROR "aotc_add_library(${target}): STATIC or SHARED, not both")
  endif()
  get_filename_component(mlir "${mlir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT AOTC_NAME)
    get_filename_component(AOTC_NAME "${mlir}" NAME_WE)
    string(MAKE_C_IDENTIFIER "${AOTC_NAME}" AOTC_NAME)
  endif()
  if(NOT AOTC_NAME MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "aotc_add_library(${target}): NAME '${AOTC_NAME}' is not a C identifier")
  endif()
  set(out "${CMAKE_CURRENT_BINARY_DIR}/aotc/${target}")
  file(MAKE_DIRECTORY "${out}")  # the include directory must exist when CMake generates
  if(AOTC_STATIC)
    set(kind STATIC)
    set(emit static)
    set(lib "${out}/lib${AOTC_NAME}.a")
  else()
    set(kind SHARED)
    set(emit shared)
    set(lib "${out}/lib${AOTC_NAME}.so")
  endif()
  set(args compile "${mlir}" -o "${lib}" --emit ${emit} --name "${AOTC_NAME}")
  set(outputs "${lib}" "${out}/${AOTC_NAME}.h" "${out}/aot_runtime.h" "${out}/aot_runtime.pc")
  if(AOTC_TARGET_TRIPLE)
    list(APPEND args --target-triple "${AOTC_TARGET_TRIPLE}")
  endif()
  if(AOTC_CPP_CLASS)
    list(APPEND args --cpp-class "${AOTC_CPP_CLASS}")
    list(APPEND outputs "${out}/${AOTC_NAME}.hpp")
  endif()
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND "${AOTC_EXECUTABLE}" ${args}
    DEPENDS "${mlir}"
    COMMENT "aotc: compiling ${mlir} into ${lib}"
    VERBATIM)
  add_custom_target(${target}_aotc DEPENDS ${outputs})

  add_library(${target}_artifact ${kind} IMPORTED GLOBAL)
  set_target_properties(${target}_artifact PROPERTIES
    IMPORTED_LOCATION "${lib}"
    IMPORTED_NO_SONAME TRUE  # aotc's .so has no SONAME: link it as -lNAME, found through the rpath
    INTERFACE_INCLUDE_DIRECTORIES "${out}"
    INTERFACE_LINK_LIBRARIES "m;pthread;dl")
  add_library(${target} INTERFACE)
  target_link_libraries(${target} INTERFACE ${target}_artifact)
  add_dependencies(${target} ${target}_aotc)  # consumers build after the artifact
  set_target_properties(${target} PROPERTIES
    AOTC_NAME "${AOTC_NAME}" AOTC_OUTPUT_DIR "${out}" AOTC_LIBRARY "${lib}")
endfunction()
