// attnc: the command line. CLI11 is included here only; subcommands live in their own files.
#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
  CLI::App app{"attnc: a compiler for attention variants"};
  app.require_subcommand(1);
  CLI11_PARSE(app, argc, argv);
  return 0;
}
