# cuzk_target_defaults(target): warnings, sanitizers and optimisation flags
# shared by every cuzk target.
function(cuzk_target_defaults target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers>)
  if(CUZK_WERROR)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
  endif()
  if(CUZK_SANITIZE)
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CXX>:-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined>)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()

# cuzk_library(name SOURCES ... DEPS ...): a layer's static library with its
# public include directory <layer>/include.
function(cuzk_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  if(ARG_SOURCES)
    add_library(cuzk_${name} STATIC ${ARG_SOURCES})
    target_include_directories(cuzk_${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
    target_link_libraries(cuzk_${name} PUBLIC ${ARG_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
    cuzk_target_defaults(cuzk_${name})
  else()
    add_library(cuzk_${name} INTERFACE)
    target_include_directories(cuzk_${name} INTERFACE ${CMAKE_CURRENT_SOURCE_DIR}/include)
    target_link_libraries(cuzk_${name} INTERFACE ${ARG_DEPS})
  endif()
  add_library(cuzk::${name} ALIAS cuzk_${name})
endfunction()

# cuzk_test(name SOURCES ... DEPS ... [LABELS ...] [COST SECONDS] [TEST_CACHE]):
# a GoogleTest binary registered with CTest. COST: about how long its longest
# case runs on two cores; CTest starts costly tests first when it runs tests
# in parallel, so that a long one does not start last and run alone. TEST_CACHE: its tests share files that are
# deterministic and slow to make (INSECURE development keys of fixed seeds)
# in ${CMAKE_BINARY_DIR}/test-cache, emptied once at the start of each CTest
# run (fixture test_cache), so that every process of the run finds what the
# first one made, and no run uses files an older build made.
function(cuzk_test name)
  if(NOT CUZK_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(ARG "TEST_CACHE" "COST" "SOURCES;DEPS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main)
  cuzk_target_defaults(${name})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  # One variable only: gtest_discover_tests flattens PROPERTIES, so a second
  # ENVIRONMENT entry would become a property name and swallow LABELS.
  set(props ENVIRONMENT "CUZK_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
  if(ARG_LABELS)
    list(APPEND props LABELS "${ARG_LABELS}")
  endif()
  if(ARG_COST)
    list(APPEND props COST ${ARG_COST})
  endif()
  if(ARG_TEST_CACHE)
    cuzk_test_cache_fixture()
    list(APPEND props FIXTURES_REQUIRED test_cache)
  endif()
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES ${props})
endfunction()

# The test that empties the shared test cache (once per CTest run).
function(cuzk_test_cache_fixture)
  get_property(made GLOBAL PROPERTY CUZK_TEST_CACHE_FIXTURE)
  if(made)
    return()
  endif()
  set_property(GLOBAL PROPERTY CUZK_TEST_CACHE_FIXTURE TRUE)
  add_test(NAME test_cache.reset COMMAND ${CMAKE_COMMAND} -E rm -rf ${CMAKE_BINARY_DIR}/test-cache)
  set_tests_properties(test_cache.reset PROPERTIES FIXTURES_SETUP test_cache)
endfunction()
