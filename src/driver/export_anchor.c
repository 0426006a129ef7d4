/* export_anchor.c: the one source of the libcuda.so.1 target itself.
 * Everything else comes from cubridge_core, linked whole, so that every
 * exported driver entry point lands in the shared object. */
int cb_driver_anchor;
