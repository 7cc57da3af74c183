package dev.floe.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.error.ExitCodes;
import org.junit.jupiter.api.Test;

/**
 * Which runs write a command's class-data archive. That they do, and that bin/floe keeps what they
 * wrote, is BinFloeStartupITCase's.
 */
class ClassDataArchiveTest {

  @Test
  void onlyASuccessfulRunOfTheCommandThatRanAJobWhereOneIsNeededStandsForIt() {
    assertThat(ClassDataArchive.standsForItsCommand(ExitCodes.OK, true, true, 1)).isTrue();
    assertThat(ClassDataArchive.standsForItsCommand(ExitCodes.OK, true, false, 0)).isTrue();

    assertThat(ClassDataArchive.standsForItsCommand(ExitCodes.OK, true, true, 0))
        .as("a statement without a job")
        .isFalse();
    assertThat(ClassDataArchive.standsForItsCommand(ExitCodes.INVALID_INPUT, true, true, 1))
        .as("a failed run, even after a job")
        .isFalse();
    assertThat(ClassDataArchive.standsForItsCommand(ExitCodes.UNEXPECTED, true, false, 0))
        .isFalse();
    assertThat(ClassDataArchive.standsForItsCommand(ExitCodes.OK, false, false, 0))
        .as("--help")
        .isFalse();
  }

  @Test
  void classesToLinkAreTheListingsClassesAndInterfacesWithoutHiddenOnes() {
    String listing =
        String.join(
            "\n",
            "java.lang.Object/null",
            "|--jdk.internal.access.JavaSecurityPropertiesAccess/null (intf)",
            "|--org.apache.flink.table.planner.Foo$Bar/0x00007f104c125b90",
            "|  implements java.util.function.Predicate/null (declared intf)",
            "|  |--com.example.Check$$Lambda$156/0x00007f0fcc119f90/0x00007f104c125b90",
            "|  |  implements java.io.Serializable/null (declared intf)");

    assertThat(ClassDataArchive.classNames(listing))
        .containsExactly(
            "java.lang.Object",
            "jdk.internal.access.JavaSecurityPropertiesAccess",
            "org.apache.flink.table.planner.Foo$Bar",
            "java.util.function.Predicate",
            "java.io.Serializable");
  }
}
