#include "benchpr/app/cli.hpp"

int main(int argc, char** argv) { return benchpr::app::run_cli(argc, argv); }
