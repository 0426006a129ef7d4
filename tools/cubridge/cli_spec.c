/* cli_spec.c: the one description of the command line. Every subcommand,
 * option, exit status and environment variable is written here once;
 * `--help`, the man page (`cubridge help --man` > docs/cubridge.1) and the
 * reference section of docs/cli.md (`cubridge help --markdown`) are printed
 * from this table, and cli_args.c parses options from it.
 * scripts/gen_cli_docs.sh rewrites the two documents; the ctest
 * `cli.docs` fails when the committed ones differ from what this prints. */
#include <string.h>

#include "cli.h"

static const cli_option run_options[] = {
    {"backend", 'b', "NAME",
     "the backend that runs kernels: cpu (the default) runs them on this machine's CPU; cuda passes every call "
     "through to NVIDIA's libcuda.so.1; opencl (where built) runs them on an OpenCL device (sets CUBRIDGE_BACKEND)"},
    {"sm", 0, "N", "the compute capability reported, e.g. 86 for 8.6 (sets CUBRIDGE_SM)"},
    {"warp-size", 0, "N",
     "32 (the default) or 64: run kernels with 64-lane warps, as on AMD's GCN and CDNA GPUs, to expose code that "
     "assumes 32 (cpu backend only; sets CUBRIDGE_WARP_SIZE; docs/cpu-backend.md)"},
    {0, 0, 0, 0},
};

static const cli_option inspect_options[] = {
    {"verify", 0, NULL, "also re-run each launch on the CPU reference and compare the results (drift)"},
    {"strict", 0, NULL,
     "unsupported calls are errors and drift fails the launch (CUDA_ERROR_LAUNCH_FAILED); the run exits 3 "
     "unless --error-exitcode says otherwise"},
    {"report", 'r', "DIR", "where the reports go (default ./cubridge-report)"},
    {"error-exitcode", 'e', "N",
     "exit with status N (1-255) when any launch or library call ended DRIFT, UNSUPPORTED or FAILED, even if "
     "the program exited 0; 0 keeps the program's status"},
    {"junit", 'j', "FILE", "also write the per-kernel verdicts as JUnit XML to FILE (always written as "
                           "junit.xml in the report directory)"},
    {"backend", 'b', "NAME", "as for run"},
    {"sm", 0, "N", "as for run"},
    {"warp-size", 0, "N", "as for run"},
    {0, 0, 0, 0},
};

static const cli_option audit_options[] = {
    {"preset", 'p', "NAME", "the workload: gemm, conv2d-fwd, conv2d-bwd, sdpa, softmax, layernorm, reduce or fft"},
    {"precision", 0, "TYPE", "fp32 (the default), fp16 or bf16: the data's type (sdpa without it: all three)"},
    {"batch", 0, "N", "the batch size (default 2)"},
    {"seq", 0, "N", "the sequence length, image side or transform length (default per preset: docs/audit.md)"},
    {"warp-size", 0, "N", "32 (the default) or 64: every case runs its kernels with 64-lane warps (as for run), "
                          "where code that assumes 32 shows as DRIFT or FAIL (docs/audit.md, \"Warp size\")"},
    {"report", 'r', "DIR", "where the reports go (default ./cubridge-report)"},
    {"error-exitcode", 'e', "N", "as for inspect"},
    {"backend", 'b', "NAME", "as for run"},
    {"sm", 0, "N", "as for run"},
    {0, 0, 0, 0},
};

static const cli_option devices_options[] = {
    {"backend", 'b', "NAME", "the backend to ask (default: CUBRIDGE_BACKEND, else cpu)"},
    {0, 0, 0, 0},
};

static const cli_option coverage_options[] = {
    {"list", 'l', NULL, "list every symbol with its status and the test that calls it"},
    {0, 0, 0, 0},
};

static const cli_option ptx_options[] = {
    {"out", 'o', "FILE", "write the generated C to FILE instead of standard output"},
    {0, 0, 0, 0},
};

static const cli_option help_options[] = {
    {"man", 0, NULL, "print the whole reference as a man page (roff; docs/cubridge.1)"},
    {"markdown", 0, NULL, "print the whole reference as Markdown (the reference section of docs/cli.md)"},
    {0, 0, 0, 0},
};

const cli_command cli_commands[] = {
    {"run", cli_run, "[OPTIONS] [--] PROGRAM [ARGS...]", "run a CUDA program on cubridge's libcuda.so.1",
     "Puts cubridge's lib directory first on LD_LIBRARY_PATH, sets the variables listed in docs/cli.md (a value "
     "you set yourself wins), and replaces itself with PROGRAM (execvp): the exit status, and a signal that "
     "kills the program, are the program's own. Options end at the first operand or at --; everything after "
     "goes to the program unchanged.\n\n"
     "At exit the driver prints one summary line on stderr (CUBRIDGE_SUMMARY=1). When the program dies of a "
     "signal, cubridge says which on stderr, flushes the program's buffered standard output where it can, "
     "and still prints the summary line.",
     run_options,
     "The program's. 127: the program was not found; 126: it cannot be run; 2: a usage error (unknown option, "
     "unknown backend, bad --sm).",
     0, 1},
    {"inspect", cli_inspect, "[OPTIONS] [--] PROGRAM [ARGS...]", "trace and verify every routed call and launch",
     "Runs PROGRAM as run does, with the dispatch inspector on (CUBRIDGE_INSPECT=trace, or verify). Every "
     "driver call and kernel launch is recorded; with --verify each launch is re-run on the CPU reference and "
     "compared. At exit it prints a summary table on stderr with the count of each status, and writes "
     "report.html, report.json, junit.xml, trace.jsonl and trace.perfetto.json into the report directory "
     "(docs/inspector.md).",
     inspect_options,
     "The program's, unless a launch or library call ended DRIFT, UNSUPPORTED or FAILED: then N from "
     "--error-exitcode, or 3 with --strict. 2: a usage error; 126/127 as for run.",
     0, 1},
    {"devices", cli_devices, "[OPTIONS]", "list the devices cubridge reports",
     "Starts the driver as a program would and lists each device: name, backend, compute capability, memory, "
     "multiprocessors, threads and shared memory per block. With the cuda backend it asks NVIDIA's driver "
     "and lists its devices, or says that no real driver was found. With the opencl backend it then lists "
     "every OpenCL device (P:D, marking the one CUBRIDGE_OPENCL_DEVICE picks) and what it can do: sub-groups "
     "and their sizes, fp16, fp64, 64-bit atomics, SVM and images.",
     devices_options, "0; 1 if the driver cannot start (the reason is printed); 2: a usage error.", 0, 0},
    {"cache", cli_cache, "[dir|stats|clear]", "show, measure or clear the kernel cache",
     "The directory where compiled kernels are kept: CUBRIDGE_CACHE_DIR, else $XDG_CACHE_HOME/cubridge, else "
     "~/.cache/cubridge. dir prints it; stats (the default) counts the compiled modules, files and bytes, and "
     "gives the cache's entries, its cap (CUBRIDGE_CACHE_MAX) and how much is used, when entries were last "
     "used, and the hits, misses, evictions and rebuilds every process counted (the CPU's shared objects, "
     "then OpenCL's program binaries when there are any); clear removes everything "
     "inside it (never / or the home directory).",
     NULL, "0; 1 if the directory cannot be read or cleared; 2: a usage error.", 0, 0},
    {"coverage", cli_coverage, "[OPTIONS] [LIBRARY]", "NVIDIA exports mapped by cubridge, per library",
     "For each NVIDIA library (or only LIBRARY: driver, cudart, cublas ...), how many of its exports cubridge "
     "implements, answers NOT_SUPPORTED, lacks, and calls from a test (docs/coverage.md). It reads cubridge's "
     "libraries in the lib directory (CUBRIDGE_LIB_DIR, else next to this program).",
     coverage_options, "0; 1 if the lib directory cannot be found; 2: unknown library or a usage error.", 0, 0},
    {"ptx", cli_ptx, "[OPTIONS] FILE.ptx", "translate PTX and show the C, or the error",
     "Translates a PTX file with the driver's pipeline and prints the generated C. On failure it prints the "
     "translator's message, FILE:LINE: near 'INSTRUCTION': reason.",
     ptx_options, "0; 1 if the file cannot be read or translated; 2: a usage error.", 0, 0},
    {"audit", cli_audit, "--preset NAME [OPTIONS]", "run built-in workloads under the inspector and report",
     "Runs one of cubridge's built-in workloads (no nvcc needed) as `cubridge inspect --verify` runs a program: "
     "gemm on cuBLAS, conv2d-fwd and conv2d-bwd on cuDNN's legacy API, sdpa on cuDNN's backend (graph) API, fft "
     "on cuFFT, and softmax, layernorm and reduce as kernels from PTX shipped inside cubridge. Each case computes "
     "a reference in double and reports a status: PASS with its measured drift, DRIFT, UNSUPPORTED (the library "
     "answered NOT_SUPPORTED) or FAIL. The cases are printed on stdout; the inspector's summary table goes to "
     "stderr, and report.html, report.json, junit.xml and the traces into the report directory "
     "(docs/audit.md).",
     audit_options,
     "0 when every case is PASS or UNSUPPORTED; 1 when one is DRIFT or FAIL (or N from --error-exitcode when any "
     "call ended DRIFT, UNSUPPORTED or FAILED); 2: a usage "
     "error; 127: the workloads are not in this build.",
     0, 0},
    {"version", cli_version, "", "print the version", "Prints \"cubridge VERSION\".", NULL, "0.", 0, 0},
    {"help", cli_help, "[OPTIONS] [COMMAND]", "print the usage, or a command's help",
     "Without COMMAND: the list of commands. With COMMAND: the same as cubridge COMMAND --help.", help_options,
     "0; 2: unknown command.", 0, 0},
};
const size_t cli_command_count = sizeof cli_commands / sizeof cli_commands[0];

const cli_envvar cli_envvars[] = {
    {"CUBRIDGE_BACKEND", "cpu",
     "the backend that runs kernels: cpu, cuda (NVIDIA's driver) or opencl (an OpenCL device)"},
    {"CUBRIDGE_SM", "86", "the compute capability reported (86 is 8.6)"},
    {"CUBRIDGE_WARP_SIZE", "32", "lanes of a warp on the cpu backend: 32, or 64 as on AMD's GCN/CDNA (other backends "
                                 "refuse 64; docs/cpu-backend.md)"},
    {"CUBRIDGE_LOG", "1", "0 errors, 1 warnings, 2 info, 3 debug (every driver call)"},
    {"CUBRIDGE_SUMMARY", "1 under run", "print the one-line summary at exit"},
    {"CUBRIDGE_LIB_DIR", "next to cubridge", "where run finds libcuda.so.1"},
    {"CUBRIDGE_CACHE_DIR", "~/.cache/cubridge", "compiled kernels"},
    {"CUBRIDGE_CACHE_MAX", "512M", "the kernel cache's size cap (least recently used entries are evicted)"},
    {"CUBRIDGE_HOST_CC", "cc", "the C compiler for translated kernels"},
    {"CUBRIDGE_THREADS", "CPUs", "worker threads that run blocks"},
    {"CUBRIDGE_CODEGEN", "tiered", "the CPU's code: tiered (a hot kernel rebuilt with SIMD lanes), fast (lanes "
                                   "everywhere), general (no lanes)"},
    {"CUBRIDGE_TIER_MS", "50", "tiered: a kernel's launch time in ms before it is rebuilt with lanes"},
    {"CUBRIDGE_PROGRESS", "1", "0: no progress line on a terminal while modules translate and compile"},
    {"CUBRIDGE_INSPECT", "off", "trace or verify: the dispatch inspector"},
    {"CUBRIDGE_STRICT", "unset", "1: unsupported calls and drift are errors; the run exits 3 if any occurred"},
    {"CUBRIDGE_ERROR_EXITCODE", "unset", "N: the exit status when a launch or library call ended DRIFT, "
                                          "UNSUPPORTED or FAILED"},
    {"CUBRIDGE_INSPECT_DIR", "cubridge-report", "where the inspector writes its reports"},
    {"CUBRIDGE_JUNIT", "unset", "FILE: the inspector also writes its JUnit XML there"},
    {"CUBRIDGE_REAL_LIBCUDA", "searched", "with the cuda backend: NVIDIA's libcuda.so.1"},
};
const size_t cli_envvar_count = sizeof cli_envvars / sizeof cli_envvars[0];

const cli_command *cli_command_find(const char *name)
{
    for (size_t i = 0; i < cli_command_count; i++)
        if (strcmp(cli_commands[i].name, name) == 0)
            return &cli_commands[i];
    return NULL;
}

/* ---- plain text (--help) ------------------------------------------------- */

/* Prints text wrapped at width, each line indented by indent spaces (the
 * first line by first, which may differ). */
static void wrap(FILE *out, const char *text, int first, int indent, int width)
{
    int col = 0, pad = first;
    const char *p = text;
    while (*p) {
        if (p[0] == '\n' && p[1] == '\n') {
            fputs("\n\n", out);
            col = 0;
            pad = indent;
            p += 2;
            continue;
        }
        while (*p == ' ' || *p == '\n')
            p++;
        size_t w = strcspn(p, " \n");
        if (w == 0)
            continue;
        if (col > 0 && col + 1 + (int)w > width) {
            fputc('\n', out);
            col = 0;
            pad = indent;
        }
        if (col == 0) {
            fprintf(out, "%*s", pad, "");
            col = pad;
        } else {
            fputc(' ', out);
            col++;
        }
        fwrite(p, 1, w, out);
        col += (int)w;
        p += w;
    }
    if (col)
        fputc('\n', out);
}

static void option_label(char *buf, size_t len, const cli_option *o)
{
    if (o->short_name)
        snprintf(buf, len, "-%c, --%s%s%s", o->short_name, o->name, o->arg ? "=" : "", o->arg ? o->arg : "");
    else
        snprintf(buf, len, "    --%s%s%s", o->name, o->arg ? "=" : "", o->arg ? o->arg : "");
}

void cli_print_usage(FILE *out)
{
    fprintf(out, "usage: cubridge COMMAND [ARGS...]\n\ncommands:\n");
    for (size_t i = 0; i < cli_command_count; i++) {
        const cli_command *c = &cli_commands[i];
        if (!c->hidden)
            fprintf(out, "  %-10s %s\n", c->name, c->summary);
    }
    fprintf(out, "\n`cubridge COMMAND --help` describes a command and its options; docs/cli.md and\n"
                 "`man cubridge` the whole tool. Environment:");
    for (size_t i = 0; i < cli_envvar_count; i++)
        fprintf(out, "%s%s", i % 4 == 0 ? "\n  " : ", ", cli_envvars[i].name);
    fputc('\n', out);
}

void cli_print_command_help(FILE *out, const cli_command *c)
{
    fprintf(out, "usage: cubridge %s %s\n\n", c->name, c->synopsis);
    wrap(out, c->summary, 0, 0, 78);
    fputc('\n', out);
    wrap(out, c->description, 0, 0, 78);
    fprintf(out, "\noptions:\n");
    for (const cli_option *o = c->options; o && o->name; o++) {
        char label[64];
        option_label(label, sizeof label, o);
        fprintf(out, "  %s\n", label);
        wrap(out, o->help, 8, 8, 78);
    }
    fprintf(out, "  -h, --help\n        print this help and exit 0\n\nexit status:\n");
    wrap(out, c->exit_status, 2, 2, 78);
}

/* ---- man page ----------------------------------------------------------- */

/* roff: a leading '.' or '\'' would be a request; '-' is written \- and
 * backslashes doubled. */
static void roff(FILE *out, const char *s)
{
    int bol = 1;
    for (; *s; s++) {
        if (bol && (*s == '.' || *s == '\''))
            fputs("\\&", out);
        if (*s == '\\')
            fputs("\\e", out);
        else if (*s == '-')
            fputs("\\-", out);
        else if (s[0] == '\n' && s[1] == '\n') {
            fputs("\n.PP\n", out);
            s++;
            bol = 1;
            continue;
        } else
            fputc(*s, out);
        bol = *s == '\n';
    }
}

void cli_print_man(FILE *out)
{
    fprintf(out, ".\\\" Generated by `cubridge help --man` from tools/cubridge/cli_spec.c; do not edit.\n"
                 ".TH CUBRIDGE 1 \"\" \"cubridge %s\" \"User Commands\"\n.SH NAME\n"
                 "cubridge \\- run CUDA programs without an NVIDIA GPU, and inspect what they call\n"
                 ".SH SYNOPSIS\n", CUBRIDGE_VERSION);
    for (size_t i = 0; i < cli_command_count; i++) {
        const cli_command *c = &cli_commands[i];
        if (c->hidden)
            continue;
        fprintf(out, ".B cubridge %s\n", c->name);
        if (c->synopsis[0]) {
            roff(out, c->synopsis);
            fputc('\n', out);
        }
        fputs(".br\n", out);
    }
    fputs(".SH DESCRIPTION\ncubridge ships its own libcuda.so.1: kernels are translated from the PTX that nvcc "
          "embeds and run on the CPU, or passed through to NVIDIA's driver.\n.SH COMMANDS\n", out);
    for (size_t i = 0; i < cli_command_count; i++) {
        const cli_command *c = &cli_commands[i];
        if (c->hidden)
            continue;
        fprintf(out, ".SS \"cubridge %s ", c->name);
        roff(out, c->synopsis);
        fputs("\"\n", out);
        roff(out, c->summary);
        fputs(".\n.PP\n", out);
        roff(out, c->description);
        fputc('\n', out);
        for (const cli_option *o = c->options; o && o->name; o++) {
            char label[64];
            option_label(label, sizeof label, o);
            fputs(".TP\n.B ", out);
            roff(out, label + (label[0] == ' ' ? 4 : 0));
            fputc('\n', out);
            roff(out, o->help);
            fputc('\n', out);
        }
        fputs(".TP\n.B \\-h, \\-\\-help\nprint the help and exit 0\n.PP\nExit status: ", out);
        roff(out, c->exit_status);
        fputc('\n', out);
    }
    fputs(".SH ENVIRONMENT\n", out);
    for (size_t i = 0; i < cli_envvar_count; i++) {
        fprintf(out, ".TP\n.B %s\n", cli_envvars[i].name);
        roff(out, cli_envvars[i].help);
        fputs(" (default: ", out);
        roff(out, cli_envvars[i].value);
        fputs(")\n", out);
    }
    fputs(".SH SEE ALSO\nThe documentation in docs/ of the source tree (installed under share/doc/cubridge): "
          "cli.md, inspector.md, report\\-schema.md.\n", out);
}

/* ---- Markdown ----------------------------------------------------------- */

static void md(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|' || *s == '*' || *s == '_' || *s == '<' || *s == '`')
            fputc('\\', out);
        fputc(*s, out);
    }
}

void cli_print_markdown(FILE *out)
{
    fputs("<!-- generated by `cubridge help --markdown` from tools/cubridge/cli_spec.c "
          "(scripts/gen_cli_docs.sh); do not edit by hand -->\n", out);
    for (size_t i = 0; i < cli_command_count; i++) {
        const cli_command *c = &cli_commands[i];
        if (c->hidden)
            continue;
        fprintf(out, "\n### `cubridge %s%s%s`\n\n", c->name, c->synopsis[0] ? " " : "", c->synopsis);
        md(out, c->summary);
        fputs(".\n\n", out);
        md(out, c->description);
        fputs("\n\n| option | meaning |\n| --- | --- |\n", out);
        for (const cli_option *o = c->options; o && o->name; o++) {
            char label[64];
            option_label(label, sizeof label, o);
            fprintf(out, "| `%s` | ", label + (label[0] == ' ' ? 4 : 0));
            md(out, o->help);
            fputs(" |\n", out);
        }
        fputs("| `-h, --help` | print the help and exit 0 |\n\nExit status: ", out);
        md(out, c->exit_status);
        fputc('\n', out);
    }
    fputs("\n### Environment\n\n| variable | default | meaning |\n| --- | --- | --- |\n", out);
    for (size_t i = 0; i < cli_envvar_count; i++) {
        fprintf(out, "| `%s` | ", cli_envvars[i].name);
        md(out, cli_envvars[i].value);
        fputs(" | ", out);
        md(out, cli_envvars[i].help);
        fputs(" |\n", out);
    }
}
