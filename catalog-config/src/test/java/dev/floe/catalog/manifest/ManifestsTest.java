package dev.floe.catalog.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.floe.catalog.error.InvalidInputException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one place manifests are read: what it refuses before any parser sees a value. */
class ManifestsTest {
  private static final String SOURCE = "jobs/fact_orders.yaml";

  @TempDir Path dir;

  @Test
  void aDuplicateTopLevelKeyIsRefusedNamingTheKeyTheFileAndBothLines() {
    String text =
        """
        job: fact_orders_daily
        checks:
          - not_null: [order_id]
        query: SELECT 1
        checks: []
        """;

    assertThatThrownBy(() -> Manifests.parse(SOURCE, text))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot read jobs/fact_orders.yaml: key 'checks' appears twice, on lines 2 and 5;"
                + " a key may appear once per mapping");
  }

  @Test
  void aDuplicateNestedKeyIsRefusedNamingItsPath() {
    String text =
        """
        job: j
        checks:
          - row_count: {min: 1}
          - row_count:
              min: 0
              min: 5
        """;

    assertThatThrownBy(() -> Manifests.parse(SOURCE, text))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot read jobs/fact_orders.yaml at 'checks[1].row_count': key 'min' appears twice,"
                + " on lines 5 and 6; a key may appear once per mapping");
  }

  @Test
  void aScalarCanBeReadAsTheFileSpellsItBesideHowYamlTypesIt() {
    ManifestNode root =
        Manifests.parse(
            "m.yaml",
            """
            job: 010
            values: [0.123456789012345678, yes, 1.50, 'quoted', 0x1F]
            nested: {"a/b": on}
            """);

    assertThat(root.child("job").asSpelled()).isEqualTo("010");
    assertThat(root.child("values").strings())
        .containsExactly("0.123456789012345678", "yes", "1.50", "quoted", "0x1F");
    assertThat(root.child("nested").child("a/b").asSpelled()).isEqualTo("on");
    // asText() keeps YAML's typed reading, for what is compared with it (Iceberg properties).
    assertThat(root.child("job").asText()).isEqualTo("8");
    assertThat(root.child("values").items().stream().map(ManifestNode::asText))
        .containsExactly("0.12345678901234568", "true", "1.5", "quoted", "31");
  }

  @Test
  void theStringAccessorsReadEveryValueAsTheFileSpellsItNotAsYaml11TypesIt() {
    ManifestNode root =
        Manifests.parse(
            "m.yaml",
            """
            job: 0755
            backfill: 2026_01
            version: 1.10
            exp: 1e3
            flags: [yes, off, on, no]
            hex: 0x1F
            bin: 0b101
            plus: +12
            quoted: "0755"
            props: {a: 007}
            flag: yes
            """);

    assertThat(root.requiredString("job")).isEqualTo("0755");
    assertThat(root.requiredString("backfill")).isEqualTo("2026_01");
    assertThat(root.optionalString("version", null)).isEqualTo("1.10");
    assertThat(root.optionalString("exp", null)).isEqualTo("1e3");
    assertThat(root.child("flags").strings()).containsExactly("yes", "off", "on", "no");
    assertThat(root.requiredString("hex")).isEqualTo("0x1F");
    assertThat(root.requiredString("bin")).isEqualTo("0b101");
    assertThat(root.requiredString("plus")).isEqualTo("+12");
    assertThat(root.requiredString("quoted")).isEqualTo("0755");
    assertThat(root.child("props").entries().get("a").asSpelled()).isEqualTo("007");
    // Booleans where Floe expects them keep YAML's reading; a number only its decimal spelling
    // (ManifestNodeTest: 0755 is refused, not read as 493).
    assertThat(root.child("plus").asLong()).isEqualTo(12);
    assertThat(root.optionalBoolean("flag", false)).isTrue();
  }

  @Test
  void theSameKeyInDifferentMappingsIsFine() {
    ManifestNode root =
        Manifests.parse(
            SOURCE, "a: {x: 1}\nb: {x: 2}\nchecks:\n  - unique: [id]\n  - unique: [other]\n");

    assertThat(root.child("b").child("x").asLong()).isEqualTo(2);
    assertThat(root.child("checks").items()).hasSize(2);
  }

  @Test
  void aDuplicateKeyInAFileNamesThePath() throws IOException {
    Path file = dir.resolve("floe.yaml");
    Files.writeString(file, "catalog:\n  type: jdbc\n  type: rest\n");

    assertThatThrownBy(() -> Manifests.load(file, "catalog config"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot read "
                + file
                + " at 'catalog': key 'type' appears twice, on lines 2 and 3; a key may appear"
                + " once per mapping");
  }

  @Test
  void anAliasIsRefusedInsteadOfBeingReadAsTheAnchorsName() {
    String text = "job: j\nchecks:\n  - unique: *cols\n";

    assertThatThrownBy(() -> Manifests.parse(SOURCE, text))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot read jobs/fact_orders.yaml: line 3 uses the YAML alias *cols; anchors (&)"
                + " and aliases (*) are not supported in manifests, write the value out");
  }

  @Test
  void anAnchorIsRefusedWhereItIsDeclared() {
    String text = "job: j\nchecks:\n  - not_null: &cols [order_id]\n  - unique: *cols\n";

    assertThatThrownBy(() -> Manifests.parse(SOURCE, text))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot read jobs/fact_orders.yaml: line 3 declares the YAML anchor &cols; anchors"
                + " (&) and aliases (*) are not supported in manifests, write the value out");
  }

  @Test
  void anAliasBombIsRefusedQuickly() {
    StringBuilder bomb = new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    for (char c = 'b'; c <= 'z'; c++) {
      char p = (char) (c - 1);
      bomb.append(c)
          .append(": &")
          .append(c)
          .append(" [*")
          .append(p)
          .append(",*")
          .append(p)
          .append(",*")
          .append(p)
          .append(",*")
          .append(p)
          .append(",*")
          .append(p)
          .append("]\n");
    }
    String text = bomb.toString();

    assertTimeoutPreemptively(
        Duration.ofSeconds(5),
        () ->
            assertThatThrownBy(() -> Manifests.parse(SOURCE, text))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("line 1 declares the YAML anchor &a"));
  }

  @Test
  void aSecondYamlDocumentIsRefusedInsteadOfIgnored() {
    String text = "job: j\nchecks:\n  - not_null: [id]\n---\njob: j\nchecks: []\n";

    assertThatThrownBy(() -> Manifests.parse(SOURCE, text))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot read jobs/fact_orders.yaml: a second YAML document starts on line 5; a"
                + " manifest holds one");
  }

  @Test
  void aLeadingDocumentMarkerAndATrailingEmptyDocumentAreFine() {
    ManifestNode root = Manifests.parse(SOURCE, "---\njob: j\n---\n");

    assertThat(root.requiredString("job")).isEqualTo("j");
  }

  @Test
  void aManifestOverTheSizeLimitIsRefusedBeforeItIsRead() throws IOException {
    Path file = dir.resolve("huge.yaml");
    try (RandomAccessFile huge = new RandomAccessFile(file.toFile(), "rw")) {
      huge.setLength(50L * 1024 * 1024); // sparse: nothing is written, nothing should be read
    }

    assertTimeoutPreemptively(
        Duration.ofSeconds(5),
        () ->
            assertThatThrownBy(() -> Manifests.load(file, "job manifest"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessage(
                    "Cannot read job manifest "
                        + file
                        + ": it is 52428800 bytes; a manifest may be at most 1048576 bytes"));
  }

  @Test
  void aManifestOfExactlyTheLimitIsRead() throws IOException {
    Path file = dir.resolve("full.yaml");
    String head = "job: j\n";
    Files.writeString(
        file, head + "#".repeat(Manifests.MAX_MANIFEST_BYTES - head.length() - 1) + "\n");

    assertThat(Files.size(file)).isEqualTo(Manifests.MAX_MANIFEST_BYTES);
    assertThat(Manifests.load(file, "job manifest").root().requiredString("job")).isEqualTo("j");
  }

  @Test
  void aManifestThatIsNotUtf8IsRefusedNamingTheByteAndItsOffset() throws IOException {
    Path file = dir.resolve("latin1.yaml");
    Files.write(file, "job: j\ndescription: caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));

    assertThatThrownBy(() -> Manifests.load(file, "job manifest"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot read job manifest "
                + file
                + ": it is not valid UTF-8 (byte 0xE9 at offset 23, line 2); save it as UTF-8");
  }

  @Test
  void aMissingFileIsRefusedNamingIt() {
    Path file = dir.resolve("nope.yaml");

    assertThatThrownBy(() -> Manifests.load(file, "table spec"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("Cannot read table spec " + file + ": no such file");
  }

  @Test
  void anExplicitTagIsRefusedNamingTheFileTheLineTheKeyAndTheTag() {
    String tail =
        "; tags (!) are not supported in manifests, write the value out (quote it to keep it as"
            + " text)";

    assertThatThrownBy(() -> Manifests.parse(SOURCE, "target: a.b\njob: !env JOB_NAME\n"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("Cannot read " + SOURCE + " at 'job': line 2 uses the YAML tag !env" + tail);
    assertThatThrownBy(() -> Manifests.parse(SOURCE, "job: j\nquery: !include q.sql\n"))
        .hasMessage(
            "Cannot read " + SOURCE + " at 'query': line 2 uses the YAML tag !include" + tail);
    assertThatThrownBy(
            () -> Manifests.parse(SOURCE, "job: j\nchecks:\n  - not_null: [a, !!str 010]\n"))
        .hasMessage(
            "Cannot read "
                + SOURCE
                + " at 'checks[0].not_null[1]': line 3 uses the YAML tag !!str"
                + tail);
    assertThatThrownBy(() -> Manifests.parse(SOURCE, "job: j\nslice: !cut {column: d}\n"))
        .hasMessage("Cannot read " + SOURCE + " at 'slice': line 2 uses the YAML tag !cut" + tail);
    assertThatThrownBy(() -> Manifests.parse(SOURCE, "job: j\nkey: !set\n  - a\n"))
        .hasMessage("Cannot read " + SOURCE + " at 'key': line 2 uses the YAML tag !set" + tail);
    assertThatThrownBy(() -> Manifests.parse(SOURCE, "job: ! j\n"))
        .hasMessage("Cannot read " + SOURCE + " at 'job': line 1 uses the YAML tag !" + tail);
    assertThatThrownBy(() -> Manifests.parse(SOURCE, "--- !manifest\njob: j\n"))
        .hasMessage("Cannot read " + SOURCE + ": line 1 uses the YAML tag !manifest" + tail);
    // The tag of a mapping's first key, which Jackson does not report.
    assertThatThrownBy(() -> Manifests.parse(SOURCE, "!include job: x\n"))
        .hasMessage("Cannot read " + SOURCE + ": line 1 uses the YAML tag !include" + tail);
    assertThatThrownBy(() -> Manifests.parse(SOURCE, "job: j\na:\n  !env FOO: x\n"))
        .hasMessage("Cannot read " + SOURCE + ": line 3 uses the YAML tag !env" + tail);
    assertThatThrownBy(() -> Manifests.parse(SOURCE, "job: j\na: {!!str 010: x}\n"))
        .hasMessage("Cannot read " + SOURCE + ": line 2 uses the YAML tag !!str" + tail);
    // Not tags: a '!' inside quotes or a word.
    ManifestNode notTags =
        Manifests.parse(SOURCE, "job: \"!x\"\nquery: SELECT '!x' -- !y\nb: a!b\n");
    assertThat(notTags.requiredString("job")).isEqualTo("!x");
    assertThat(notTags.requiredString("b")).isEqualTo("a!b");
  }

  @Test
  void aByteOrderMarkOrWindowsLineEndsReadAsThePlainFile() {
    for (String text : List.of("\uFEFFjob: j\ntarget: a.b\n", "job: j\r\ntarget: a.b\r\n")) {
      ManifestNode root = Manifests.parse(SOURCE, text);
      assertThat(root.requiredString("job")).isEqualTo("j");
      assertThat(root.requiredString("target")).isEqualTo("a.b");
    }
  }

  @Test
  void aSyntaxErrorIsReportedOnTheLineOfTheProblemNotWhereItsContextBegan() {
    // A tab indents line 4: SnakeYAML's context mark is line 3, its problem mark line 4.
    assertThatThrownBy(() -> Manifests.parse(SOURCE, "job: j\ntarget: a.b\nslice:\n\tcolumn: d\n"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot read " + SOURCE + ": not valid YAML: ")
        .hasMessageContaining("(line 4, column 1)");
    // An unclosed quote on line 5 is found where the file ends, on line 7.
    assertThatThrownBy(
            () ->
                Manifests.parse(
                    SOURCE, "job: j\ntarget: a.b\nmode: swap\nallow_empty: true\nquery: 'x\n\n"))
        .hasMessageContaining("while scanning a quoted scalar: found unexpected end of stream")
        .hasMessageContaining("(line 7, column 1)");
  }

  @Test
  void aFileThatCannotBeReadIsRefusedWithTheReasonNotJustItsPathAgain() throws IOException {
    Path file = Files.writeString(dir.resolve("daily.yaml"), "job: j\n");
    Path under = file.resolve("x.yaml"); // a path through a file: ENOTDIR

    assertThatThrownBy(() -> Manifests.load(under, "job manifest"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("Cannot read job manifest " + under + ": not a directory");
    // chmod 000 (as a user other than root): the exception's message is only the path.
    assertThat(Manifests.reason(new AccessDeniedException("daily.yaml")))
        .isEqualTo("permission denied");
    assertThat(Manifests.reason(new NoSuchFileException("daily.yaml"))).isEqualTo("no such file");
    assertThat(Manifests.reason(new NotDirectoryException("jobs/daily.yaml")))
        .isEqualTo("a part of its path is not a folder");
    assertThat(Manifests.reason(new FileSystemException("daily.yaml", null, "Is a directory")))
        .isEqualTo("is a directory");
    assertThat(Manifests.reason(new FileSystemException("daily.yaml")))
        .isEqualTo("FileSystemException");
    assertThat(Manifests.reason(new IOException("Input/output error")))
        .isEqualTo("Input/output error");
  }
}
