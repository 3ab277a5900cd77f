# Writes the bytes of INPUT as a comma-separated list of C integer literals to
# OUTPUT, for `const unsigned char Data[] = {
# #include "OUTPUT"
# };`. Run as: cmake -DINPUT=... -DOUTPUT=... -P EmbedBinary.cmake
file(READ "${INPUT}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
# Lines of 16 bytes, so that the file stays readable by editors.
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n" bytes "${bytes}")
file(WRITE "${OUTPUT}" "${bytes}\n")
