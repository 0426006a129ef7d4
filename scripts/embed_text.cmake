# cmake -DIN=file -DOUT=header -DNAME=symbol -P embed_text.cmake
# Writes `static const char NAME[] = { ...bytes..., 0 };` so that a text file
# can travel inside the library without any tool beyond CMake.
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE ${OUT} "/* Generated from ${IN} by scripts/embed_text.cmake. Do not edit. */\nstatic const char ${NAME}[] = {\n${bytes}0x00};\n")
