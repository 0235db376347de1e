// The Boost.Test entry point of the loader tests.
#define BOOST_TEST_MODULE runtime_loader
#include <boost/test/unit_test.hpp>
