/*
 * The relay floor: the least any process in the middle of a stdio MCP connection can cost.
 *
 * Why it exists: issue 34 judges the gateway at p50 <= 1.3x calling the upstream directly. A hop
 * alone (one more process, two more pipes, two more wake-ups per message) may already cost more
 * than that on a small machine, and the Node proxy floor (proxy-floor.ts) adds Node's event loop
 * and a parse on top. This program adds nothing but the hop: poll() on its stdin and the child's
 * stdout, read up to 64 KiB, write it all to the other side. No parsing, no buffering beyond one
 * read, no MCP. The bench compiles it with `cc` at run time (see relay-floor-build.ts) and skips
 * the side when there is no C compiler.
 *
 * Usage: relay-floor <cpu-report-path or "-"> <command> [args...]
 * It starts <command> with pipes for stdin and stdout (stderr inherited) and relays until its own
 * stdin ends (then it closes the child's stdin) and the child's stdout ends. At each SIGUSR2 (the
 * call worker's phase signal, see call-job.ts) it notes its CPU time; when its client leaves it
 * writes a CpuReport ({"cpuUs":..,"systemUs":..,"phaseEndsUs":[..],"phaseSystemEndsUs":[..]}) to the path, as the other middles do.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_PHASES 16

static volatile sig_atomic_t phase_signals = 0;
static void on_phase_signal(int signal_number) {
  (void)signal_number;
  phase_signals += 1;
}

static long long cpu_us(void) {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return (long long)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000LL + usage.ru_utime.tv_usec +
         usage.ru_stime.tv_usec;
}

/* The system (kernel) part of cpu_us(). */
static long long system_us(void) {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return (long long)usage.ru_stime.tv_sec * 1000000LL + usage.ru_stime.tv_usec;
}

/* Writes all of buffer to fd; 0 on success, -1 when the other side is gone. */
static int write_all(int fd, const char *buffer, ssize_t length) {
  while (length > 0) {
    ssize_t written = write(fd, buffer, (size_t)length);
    if (written < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    buffer += written;
    length -= written;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: relay-floor <cpu-report-path or -> <command> [args...]\n");
    return 2;
  }
  const char *report_path = strcmp(argv[1], "-") == 0 ? NULL : argv[1];
  signal(SIGPIPE, SIG_IGN);
  struct sigaction phase = {0};
  phase.sa_handler = on_phase_signal;
  sigaction(SIGUSR2, &phase, NULL);

  int to_child[2], from_child[2];
  if (pipe(to_child) != 0 || pipe(from_child) != 0) return 1;
  pid_t child = fork();
  if (child < 0) return 1;
  if (child == 0) {
    dup2(to_child[0], STDIN_FILENO);
    dup2(from_child[1], STDOUT_FILENO);
    close(to_child[0]);
    close(to_child[1]);
    close(from_child[0]);
    close(from_child[1]);
    signal(SIGPIPE, SIG_DFL);
    signal(SIGUSR2, SIG_DFL);
    execvp(argv[2], argv + 2);
    fprintf(stderr, "relay-floor: cannot start %s: %s\n", argv[2], strerror(errno));
    _exit(127);
  }
  close(to_child[0]);
  close(from_child[1]);

  long long started_us = cpu_us();
  long long started_system_us = system_us();
  long long phase_ends_us[MAX_PHASES];
  long long phase_system_ends_us[MAX_PHASES];
  int phases = 0;
  int noted_signals = 0;

  static char buffer[65536];
  struct pollfd watched[2] = {{STDIN_FILENO, POLLIN, 0}, {from_child[0], POLLIN, 0}};
  const int destination[2] = {to_child[1], STDOUT_FILENO};
  int client_left = 0;
  while (watched[1].fd >= 0) {
    int ready = poll(watched, 2, -1);
    while (noted_signals < phase_signals) {
      noted_signals += 1;
      if (phases < MAX_PHASES) {
        phase_system_ends_us[phases] = system_us() - started_system_us;
        phase_ends_us[phases++] = cpu_us() - started_us;
      }
    }
    if (ready < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int side = 0; side < 2; side += 1) {
      if (watched[side].fd < 0 || watched[side].revents == 0) continue;
      ssize_t length = read(watched[side].fd, buffer, sizeof buffer);
      if (length < 0 && errno == EINTR) continue;
      if (length <= 0 || write_all(destination[side], buffer, length) != 0) {
        /* One side ended: pass the end on (the child sees its stdin close) and stop watching it. */
        close(watched[side].fd);
        watched[side].fd = -1;
        if (side == 0) {
          client_left = 1;
          close(to_child[1]);
        }
      }
    }
    if (client_left) break;
  }

  if (report_path != NULL) {
    FILE *report = fopen(report_path, "w");
    if (report != NULL) {
      fprintf(report, "{\"cpuUs\":%lld,\"systemUs\":%lld,\"phaseEndsUs\":[", cpu_us() - started_us,
              system_us() - started_system_us);
      for (int i = 0; i < phases; i += 1) fprintf(report, "%s%lld", i == 0 ? "" : ",", phase_ends_us[i]);
      fprintf(report, "],\"phaseSystemEndsUs\":[");
      for (int i = 0; i < phases; i += 1) fprintf(report, "%s%lld", i == 0 ? "" : ",", phase_system_ends_us[i]);
      fprintf(report, "]}\n");
      fclose(report);
    }
  }
  /* As the Node floor does when its client leaves: the child goes too, and is waited for. */
  kill(child, SIGTERM);
  waitpid(child, NULL, 0);
  return 0;
}
