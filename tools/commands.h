/*
 * commands.h - the dsgx subcommands. Each lives in tools/cmd_<name>.c (bench in bench/) and
 * returns the process exit status: 0 success, 1 failure (mismatch, error in input), 2 usage.
 */
#ifndef DSGX_COMMANDS_H
#define DSGX_COMMANDS_H

int cmd_replay(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_hash(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_bench(int argc, char **argv);
/** `dsgx bench --state` (bench/bench_state.c) */
int bench_state(int argc, char **argv);
int cmd_golden(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_demo(int argc, char **argv);

#endif
