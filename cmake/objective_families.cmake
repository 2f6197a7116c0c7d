# Self-declaring built-in objective families (issue 25).
#
# A family folder datasets/<family>/ holds a CMakeLists.txt with one call
#
#   fbosim_objective_family(REGISTER fbosim::datasets::branin::register_branin_family
#                           HEADER datasets/branin/branin_family.hpp
#                           [LIBRARY fbosim_datasets_branin] [DEPS ...] [ORDER 50])
#
# The families' order in objective_registry() is the order of the docs and of the choices in
# messages (issue 40): first the families with an ORDER, by that number (the ones that predate
# this rule, so that the default family gp_grid stays first and the order of the docs and the
# messages stays as it was), then every family without one, by folder name (and, within a folder,
# in the order of its calls). A new family leaves ORDER out: no global number to pick, and a
# CMakeLists.txt copied from another folder cannot collide. Two families given one number are an
# error that names both folders. REGISTER is the function that adds the folder's entries to the
# registry, declared in HEADER. With LIBRARY the folder is a library of its own (its .cpp
# files, linked into fbosim_datasets); without it its files stay part of fbosim_datasets (the
# families that predate this). The registration list is generated into
# build/generated/objective_families.cpp: explicit calls, so a static library can never drop an
# entry and no static initialiser runs in an unspecified order.

function(fbosim_objective_family)
  cmake_parse_arguments(ARG "" "ORDER;REGISTER;HEADER;LIBRARY" "DEPS" ${ARGN})
  file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
  if(NOT ARG_REGISTER OR NOT ARG_HEADER)
    message(FATAL_ERROR "fbosim_objective_family in ${rel}: REGISTER and HEADER are required")
  endif()
  if(DEFINED ARG_ORDER)
    if(NOT ARG_ORDER MATCHES "^[0-9]+$" OR ARG_ORDER GREATER 99999)
      message(FATAL_ERROR "fbosim_objective_family in ${rel}: ORDER must be a number below "
                          "100000, got '${ARG_ORDER}' (or leave it out: the family then follows "
                          "the numbered ones, by folder name)")
    endif()
    get_property(holder GLOBAL PROPERTY FBOSIM_FAMILY_ORDER_${ARG_ORDER})
    if(holder)
      message(FATAL_ERROR "fbosim_objective_family in ${rel}: ORDER ${ARG_ORDER} is taken by "
                          "${holder}; leave ORDER out (the family then follows the numbered "
                          "ones, by folder name) or give a number no other family has")
    endif()
    set_property(GLOBAL PROPERTY FBOSIM_FAMILY_ORDER_${ARG_ORDER} "${rel}")
    math(EXPR padded "${ARG_ORDER} + 100000")  # 6 digits: sorts as text
    set(key "1|${padded}")
  else()
    # After every number ("1|..." < "2|..."), by folder, then by call within the folder.
    get_property(calls GLOBAL PROPERTY FBOSIM_FAMILY_CALLS_${rel})
    if(NOT calls)
      set(calls 0)
    endif()
    math(EXPR next "${calls} + 1")
    set_property(GLOBAL PROPERTY FBOSIM_FAMILY_CALLS_${rel} ${next})
    math(EXPR padded "${calls} + 100000")
    set(key "2|${rel}|${padded}")
  endif()
  set_property(GLOBAL APPEND PROPERTY FBOSIM_FAMILIES "${key}|${ARG_REGISTER}|${ARG_HEADER}")
  if(ARG_LIBRARY)
    file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
    add_library(${ARG_LIBRARY} STATIC ${sources})
    target_include_directories(${ARG_LIBRARY} PUBLIC ${PROJECT_SOURCE_DIR})
    target_link_libraries(${ARG_LIBRARY} PUBLIC fbosim_core fbosim_schema ${ARG_DEPS})
    set_property(GLOBAL APPEND PROPERTY FBOSIM_FAMILY_LIBRARIES ${ARG_LIBRARY})
    set_property(GLOBAL APPEND PROPERTY FBOSIM_FAMILY_FOLDERS "/${rel}/")
  endif()
endfunction()

# The declared families' REGISTER functions and HEADERs in registry order, into `out_fns` and
# `out_headers` (two lists of equal length).
function(fbosim_objective_family_order out_fns out_headers)
  get_property(families GLOBAL PROPERTY FBOSIM_FAMILIES)
  list(SORT families)
  set(fns "")
  set(headers "")
  foreach(f ${families})
    string(REPLACE "|" ";" parts "${f}")
    list(GET parts -2 fn)
    list(GET parts -1 header)
    list(APPEND fns ${fn})
    list(APPEND headers ${header})
  endforeach()
  set(${out_fns} ${fns} PARENT_SCOPE)
  set(${out_headers} ${headers} PARENT_SCOPE)
endfunction()

# Visits every datasets/*/CMakeLists.txt and generates the registration list; sets
# FBOSIM_FAMILY_LIBRARIES, FBOSIM_DATASETS_EXCLUDE (a regex: the folders that are libraries of
# their own, and torch/) and FBOSIM_FAMILY_REGISTRATION (the generated .cpp) in the caller.
function(fbosim_collect_objective_families)
  file(GLOB lists CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/datasets/*/CMakeLists.txt)
  foreach(list ${lists})
    get_filename_component(dir ${list} DIRECTORY)
    add_subdirectory(${dir})
  endforeach()
  fbosim_objective_family_order(fns headers)
  set(includes "")
  set(calls "")
  foreach(fn header IN ZIP_LISTS fns headers)
    string(APPEND includes "#include \"${header}\"\n")
    string(APPEND calls "  ${fn}(registry);\n")
  endforeach()
  set(out ${PROJECT_BINARY_DIR}/generated/objective_families.cpp)
  file(CONFIGURE OUTPUT ${out} CONTENT
"// Generated by cmake/objective_families.cmake from the fbosim_objective_family() calls of
// datasets/*/CMakeLists.txt: the numbered ones by ORDER, then the others by folder. Do not edit.
#include \"datasets/builtin_families.hpp\"
${includes}
namespace fbosim::datasets {

void register_builtin_families(schema::Registry<ObjectiveFamilyEntry>& registry) {
${calls}}

}  // namespace fbosim::datasets
" @ONLY)
  get_property(libraries GLOBAL PROPERTY FBOSIM_FAMILY_LIBRARIES)
  get_property(folders GLOBAL PROPERTY FBOSIM_FAMILY_FOLDERS)
  set(exclude "/torch/")
  foreach(folder ${folders})
    string(APPEND exclude "|${folder}")
  endforeach()
  set(FBOSIM_FAMILY_LIBRARIES ${libraries} PARENT_SCOPE)
  set(FBOSIM_DATASETS_EXCLUDE "${exclude}" PARENT_SCOPE)
  set(FBOSIM_FAMILY_REGISTRATION ${out} PARENT_SCOPE)
endfunction()
