// main() of the test executables that need no QApplication.
#include "support/catch_session.h"

int main(int argc, char** argv)
{
    return parallax::test::runCatchSession(argc, argv);
}
