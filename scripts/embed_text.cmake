# cmake -DIN=file -DOUT=file.inc -P embed_text.cmake
# Writes the bytes of a text file as a C initialiser list (`0x2f,0x2a,...,0x00`),
# NUL-terminated, for a hand-written file to #include between braces, so that a
# text file can travel inside the library without any tool beyond CMake.
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE ${OUT} "/* Generated from ${IN} by scripts/embed_text.cmake. Do not edit. */\n${bytes}0x00\n")
