# The native launcher of the "tagged" process family on Linux x64 (see src/native-launcher.ts):
#   own-group-linux-x64 FILE ARGV0 ARG...
# setpgid(0, 0), then execve(FILE, [ARGV0, ARG...], environ): the server keeps the pid, stdio,
# session and environment the transport spawned it with, and leads a process group of its own.
# A FILE the kernel cannot execute (ENOEXEC: a script without "#!") runs as execvp runs it:
# /bin/sh FILE ARG.... If nothing can be executed: a line on stderr, exit status 127.
# No libc, no dynamic loader: it starts in a fraction of a millisecond, where perl takes several.
#
# Build (GNU binutils), then put `base64 -w0 /tmp/own-group` into NATIVE_LAUNCHER_IMAGE in
# src/native-launcher.ts (and give its FILE_NAME a new number); a test checks the two agree:
#   as -o /tmp/own-group.o own-group-linux-x64.s &&
#   ld -static -nostdlib -n -s --build-id=none -z noexecstack -o /tmp/own-group /tmp/own-group.o
    .section .note.GNU-stack, "", @progbits
    .text
    .globl _start
_start:
    xor %edi, %edi
    xor %esi, %esi
    mov $109, %eax              # setpgid(0, 0); a failure leaves the server in the host's group
    syscall
    mov (%rsp), %rbx            # argc
    mov 16(%rsp), %rdi          # argv[1]: FILE
    lea 24(%rsp), %rsi          # &argv[2]: the server's own argv
    lea 16(%rsp,%rbx,8), %rdx   # envp: &argv[argc + 1]
    mov $59, %eax               # execve
    syscall
    cmp $-8, %rax               # ENOEXEC
    jne fail
    mov %rdi, 24(%rsp)          # argv becomes [/bin/sh, FILE, ARG...]
    lea sh(%rip), %rdi
    mov %rdi, 16(%rsp)
    lea 16(%rsp), %rsi
    mov $59, %eax
    syscall
fail:
    mov $2, %edi
    lea msg(%rip), %rsi
    mov $msglen, %edx
    mov $1, %eax                # write(2, msg, msglen)
    syscall
    mov $127, %edi
    mov $60, %eax               # exit(127)
    syscall
sh: .asciz "/bin/sh"
msg: .ascii "mcp-tool-adapter: could not execute the MCP server\n"
    .set msglen, . - msg
