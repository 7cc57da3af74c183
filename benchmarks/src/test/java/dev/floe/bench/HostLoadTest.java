package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HostLoadTest {

  @Test
  void childCpuIsCutimePlusCstimeEvenWhenTheCommandNameHasSpacesAndParentheses() {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
    // cutime cstime ...: children used 300 + 150 ticks.
    String stat =
        "4242 (java (bench) x) S 1 4242 4242 0 -1 4194560 100 200 0 0 50 20 300 150 20 0 40 0";

    assertThat(HostLoad.childCpuSeconds(stat)).isEqualTo(4.5);
  }

  @Test
  void thisJvmsOwnCpuIncludesItsChildrenAndIsReadable() {
    assertThat(HostLoad.childCpuSeconds()).isGreaterThanOrEqualTo(0);
    assertThat(HostLoad.ownCpuSeconds()).isGreaterThan(0);
  }
}
