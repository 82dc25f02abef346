// tempo: the headless command line; all the work is in tempo_cli (Cli.h).
#include "tempo/Cli.h"

#include <iostream>

int main(int argc, char** argv) { return tempo::cli::runCli(argc, argv, std::cout, std::cerr); }
