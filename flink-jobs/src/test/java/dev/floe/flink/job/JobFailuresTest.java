package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.LineageKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.util.Map;
import org.apache.flink.table.api.TableException;
import org.apache.flink.table.api.TableRuntimeException;
import org.junit.jupiter.api.Test;

class JobFailuresTest {

  @Test
  void theRootCauseIsShownWithTheMessageThatSaysWhatFailedToConnect() {
    ConnectException root = new ConnectException("Connection refused");
    IOException sdk =
        new IOException(
            "Unable to execute HTTP request: Connect to 127.0.0.1:9000 [/127.0.0.1] failed:"
                + " Connection refused",
            root);
    RuntimeException wrapper = new RuntimeException(new UncheckedIOException(sdk));
    RuntimeException flink = new RuntimeException("Job execution failed.", wrapper);

    assertThat(JobFailures.rootMessage(flink)).isEqualTo("Connection refused");
    assertThat(JobFailures.rootMessageInContext(flink))
        .isEqualTo(
            "Unable to execute HTTP request: Connect to 127.0.0.1:9000 [/127.0.0.1] failed:"
                + " Connection refused");
  }

  @Test
  void wrappersThatOnlyRepeatTheRootWithAClassNameAreNotContext() {
    IllegalStateException root = new IllegalStateException("disk full");
    RuntimeException wrapper = new RuntimeException(root); // message: "java.lang...: disk full"

    assertThat(JobFailures.rootMessageInContext(new RuntimeException("failed", wrapper)))
        .isEqualTo("disk full");
  }

  @Test
  void aNumberFloeCannotReadInASnapshotsLineageIsNotTheQuerys() {
    Throwable lineage =
        catchThrowable(
            () -> Lineage.fromSummary(Map.of(LineageKeys.RUN_ID, "r", LineageKeys.ROWS, "many")));
    RuntimeException job = raisedByFlink(new RuntimeException("Job execution failed.", lineage));

    assertThat(lineage).hasMessageContaining("floe.rows is 'many'");
    assertThat(JobFailures.raisedByTheQuery(job)).isEmpty();
  }

  @Test
  void aValueTheQuerysGeneratedCodeCannotComputeIsTheQuerys() {
    ArithmeticException division =
        thrownAt(new ArithmeticException("/ by zero"), "BatchExecCalc$5", "processElement");
    NumberFormatException cast =
        thrownAt(
            new NumberFormatException("For input string: 'x'"),
            "org.apache.flink.table.data.binary.BinaryStringDataUtil",
            "toInt",
            "BatchExecCalc$5",
            "processElement");

    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(division))).contains("/ by zero");
    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(cast))).contains("For input string: 'x'");
  }

  @Test
  void onlyAShaTwoLengthThatNamesNoDigestIsTheQuerys() {
    // SHA2(s, n) with n from a row: the JDK looks up "SHA-" + n.
    java.security.NoSuchAlgorithmException unknownLength =
        digestMissing("SHA-2 MessageDigest not available");
    // MD5(s), or SHA2(s, 256), on a JVM whose providers lack the digest: the machine's.
    java.security.NoSuchAlgorithmException missingMd5 =
        digestMissing("MD5 MessageDigest not available");
    java.security.NoSuchAlgorithmException missingSha256 =
        digestMissing("SHA-256 MessageDigest not available");
    // How the generated code of a constant digest reports it: a wrapper at its own frame.
    RuntimeException wrapped =
        thrownAt(
            new RuntimeException(
                "Algorithm for 'MD5' is not available.",
                digestMissing("MD5 MessageDigest not available")),
            "BatchExecCalc$3",
            "<init>");

    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(unknownLength)))
        .contains("SHA-2 MessageDigest not available");
    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(missingMd5))).isEmpty();
    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(missingSha256))).isEmpty();
    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(wrapped))).isEmpty();
  }

  private static java.security.NoSuchAlgorithmException digestMissing(String message) {
    return thrownAt(
        new java.security.NoSuchAlgorithmException(message),
        "sun.security.jca.GetInstance",
        "getInstance",
        "java.security.MessageDigest",
        "getInstance",
        "org.apache.flink.table.data.binary.BinaryStringDataUtil",
        "hash",
        "BatchExecCalc$6",
        "processElement");
  }

  @Test
  void aStringThatIsNotADoubleIsTheQuerys() {
    NumberFormatException cast =
        thrownAt(
            new NumberFormatException("For input string: \"x\""),
            "jdk.internal.math.FloatingDecimal",
            "readJavaFormatString",
            "jdk.internal.math.FloatingDecimal",
            "parseDouble",
            "java.lang.Double",
            "parseDouble",
            "org.apache.flink.table.data.binary.BinaryStringDataUtil",
            "toDouble",
            "BatchExecCalc$5",
            "processElement");

    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(cast)))
        .contains("For input string: \"x\"");
  }

  @Test
  void aDateTheQuerysCodeCannotComputeIsTheQuerysWhereverItIsRaised() {
    java.time.DateTimeException inGenerated =
        thrownAt(
            new java.time.DateTimeException("Invalid date 'FEBRUARY 30'"),
            "BatchExecCalc$7",
            "processElement");
    java.time.DateTimeException inAFunction =
        thrownAt(
            new java.time.DateTimeException("Invalid value for MonthOfYear: 13"),
            "java.time.LocalDate",
            "of",
            "org.apache.flink.table.utils.DateTimeUtils",
            "parseDate",
            "BatchExecCalc$7",
            "processElement");
    java.time.DateTimeException inIceberg =
        thrownAt(
            new java.time.DateTimeException("Invalid value for MonthOfYear: 13"),
            "java.time.LocalDate",
            "of",
            "org.apache.iceberg.util.DateTimeUtil",
            "dateFromDays",
            "BatchExecCalc$7",
            "processElement");
    java.time.DateTimeException inTheReducer =
        thrownAt(
            new java.time.DateTimeException("Invalid date"),
            "org.apache.flink.table.planner.codegen.ExpressionReducer",
            "reduce");

    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(inGenerated)))
        .contains("Invalid date 'FEBRUARY 30'");
    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(inAFunction)))
        .contains("Invalid value for MonthOfYear: 13");
    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(inIceberg))).isEmpty();
    assertThat(JobFailures.raisedByTheQuery(inTheReducer)).isEmpty();
  }

  @Test
  void aQueryErrorFlinkSerializedOnTheWayFromTheTaskIsStillTheQuerys() {
    ArithmeticException division =
        thrownAt(new ArithmeticException("/ by zero"), "BatchExecCalc$5", "processElement");
    org.apache.flink.util.SerializedThrowable serialized =
        new org.apache.flink.util.SerializedThrowable(division);

    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(serialized))).contains("/ by zero");
  }

  @Test
  void aLikePatternWithAnInvalidEscapeIsTheQuerysButNotAnyBareRuntimeExceptionNearIt() {
    RuntimeException escape =
        thrownAt(
            new RuntimeException("Invalid escape sequence '1!', 1"),
            "org.apache.flink.table.functions.SqlLikeUtils",
            "invalidEscapeSequence",
            "org.apache.flink.table.functions.SqlLikeUtils",
            "like",
            "BatchExecCalc$10",
            "processElement");
    RuntimeException fromAValueFunction =
        thrownAt(
            new RuntimeException("internal"),
            "org.apache.flink.table.runtime.functions.SqlFunctionUtils",
            "regexpExtract",
            "BatchExecCalc$10",
            "processElement");
    RuntimeException wrapped =
        thrownAt(
            new RuntimeException("x", new java.io.IOException("disk full")),
            "org.apache.flink.table.functions.SqlLikeUtils",
            "like",
            "BatchExecCalc$10",
            "processElement");

    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(escape)))
        .contains("Invalid escape sequence '1!', 1");
    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(fromAValueFunction))).isEmpty();
    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(wrapped))).isEmpty();
  }

  @Test
  void aStringTooLargeForAWideDecimalIsTheQuerys() {
    ArithmeticException cast =
        thrownAt(
            new ArithmeticException("Underflow"),
            "java.math.BigDecimal",
            "setScale",
            "org.apache.flink.table.data.DecimalData",
            "fromBigDecimal",
            "org.apache.flink.table.data.binary.BinaryStringDataUtil",
            "toBigPrecisionDecimal",
            "org.apache.flink.table.data.binary.BinaryStringDataUtil",
            "toDecimal",
            "BatchExecCalc$5",
            "processElement");

    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(cast))).contains("Underflow");
    ArithmeticException division =
        thrownAt(
            new ArithmeticException("Division by zero"),
            "java.math.BigDecimal",
            "divide",
            "org.apache.flink.table.data.DecimalDataUtils",
            "divide",
            "BatchExecCalc$5",
            "processElement");
    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(division))).contains("Division by zero");
  }

  @Test
  void aConstantThePlannerCannotFoldIsTheQuerys() {
    ArithmeticException division =
        thrownAt(
            new ArithmeticException("Division by zero"),
            "org.apache.flink.table.planner.codegen.ExpressionReducer",
            "$anonfun$skipAndValidateExprs$2");

    assertThat(JobFailures.raisedByTheQuery(division)).contains("Division by zero");
  }

  @Test
  void aNumberIcebergCannotParseIsNotTheQuerysEvenBelowItsGeneratedCode() {
    NumberFormatException property =
        thrownAt(
            new NumberFormatException("For input string: \"abc\""),
            "java.lang.Long",
            "parseLong",
            "org.apache.iceberg.util.PropertyUtil",
            "propertyAsLong",
            "BatchExecCalc$5",
            "processElement");
    NumberFormatException parquet =
        thrownAt(
            new NumberFormatException("For input string: \"abc\""),
            "java.lang.Integer",
            "parseInt",
            "org.apache.parquet.hadoop.ParquetOutputFormat",
            "getBlockSize",
            "BatchExecCalc$5",
            "processElement");
    ArithmeticException network =
        thrownAt(
            new ArithmeticException("integer overflow"),
            "org.apache.flink.runtime.io.network.api.writer.RecordWriter",
            "emit",
            "org.apache.flink.streaming.runtime.io.RecordWriterOutput",
            "collect",
            "BatchExecCalc$5",
            "processElement");
    NumberFormatException nowhere =
        thrownAt(new NumberFormatException("x"), "org.apache.flink.runtime.Task", "run");

    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(property))).isEmpty();
    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(parquet))).isEmpty();
    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(network))).isEmpty();
    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(nowhere))).isEmpty();
  }

  @Test
  void flinksOwnValueErrorsRaisedForTheQueryAreTheQuerys() {
    TableException booleanCast =
        thrownAt(
            new TableException("Cannot parse 'x' as BOOLEAN."),
            "org.apache.flink.table.data.binary.BinaryStringDataUtil",
            "toBoolean",
            "BatchExecCalc$8",
            "processElement");
    RuntimeException element =
        thrownAt(
            new RuntimeException("Array has more than one element."),
            "BatchExecCalc$3",
            "processElement");
    TableRuntimeException json =
        thrownAt(
            new TableRuntimeException(
                "org.apache.flink.shaded.jackson2.com.fasterxml.jackson.core.JsonParseException:"
                    + " Unrecognized token 'first'"),
            "org.apache.flink.table.runtime.functions.SqlJsonUtils",
            "jsonValue",
            "BatchExecCalc$4",
            "processElement");

    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(booleanCast)))
        .contains("Cannot parse 'x' as BOOLEAN.");
    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(element)))
        .contains("Array has more than one element.");
    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(json)))
        .contains("Unrecognized token 'first'");
  }

  @Test
  void aDatePatternOrCharsetTheQueryNamesIsTheQuerys() {
    IllegalArgumentException pattern =
        thrownAt(
            new IllegalArgumentException("Illegal pattern character 'f'"),
            "java.text.SimpleDateFormat",
            "compile",
            "org.apache.flink.table.utils.ThreadLocalCache",
            "get",
            "org.apache.flink.table.utils.DateTimeUtils",
            "formatUnixTimestamp",
            "BatchExecCalc$6",
            "processElement");
    java.io.UnsupportedEncodingException charset =
        thrownAt(
            new java.io.UnsupportedEncodingException("no-such-charset"),
            "java.lang.String",
            "lookupCharset",
            "BatchExecCalc$6",
            "processElement");

    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(pattern)))
        .contains("Illegal pattern character 'f'");
    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(charset))).contains("no-such-charset");
  }

  @Test
  void flinksOwnFailuresInsideGeneratedCodeAreNotTheQuerys() {
    RuntimeException wrapped =
        thrownAt(
            new RuntimeException(new java.io.IOException("disk full")),
            "TableFunctionCollector$7",
            "close");
    TableException internal =
        thrownAt(new TableException("ProbeRow should not be null"), "HashJoin$9", "probe");
    RuntimeException assertion =
        thrownAt(
            new RuntimeException("ProbeRow should not be null"),
            "LongHashJoinOperator$12",
            "processElement");
    IllegalArgumentException writer =
        thrownAt(
            new IllegalArgumentException("Unsupported type: RAW"),
            "org.apache.flink.table.data.writer.BinaryWriter",
            "write",
            "BatchExecCalc$5",
            "processElement");
    TableException reducer =
        thrownAt(
            new TableException("RichMapFunction[GenericRowData, GenericRowData] required here"),
            "org.apache.flink.table.planner.codegen.ExpressionReducer",
            "reduce");

    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(wrapped))).isEmpty();
    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(internal))).isEmpty();
    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(assertion))).isEmpty();
    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(writer))).isEmpty();
    IllegalArgumentException nextToTheDecimals =
        thrownAt(
            new IllegalArgumentException(),
            "org.apache.flink.table.data.DecimalDataSerializerSnapshot",
            "check",
            "BatchExecCalc$5",
            "processElement");
    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(nextToTheDecimals))).isEmpty();
    assertThat(JobFailures.raisedByTheQuery(reducer)).isEmpty();
  }

  @Test
  void aQueryErrorThatFloeWrappedIsStillTheQuerys() {
    ArithmeticException division =
        thrownAt(new ArithmeticException("/ by zero"), "BatchExecCalc$5", "processElement");
    IllegalStateException floe =
        thrownAt(
            new IllegalStateException("Cannot write the slice", division),
            "dev.floe.flink.write.SliceWriterOperator",
            "processElement");

    assertThat(JobFailures.raisedByTheQuery(inAFailedJob(floe))).contains("/ by zero");
  }

  @Test
  void theMessageLosesTheClassNamesInFrontAndAnEmptyOneIsNamedByItsClass() {
    TableRuntimeException twice =
        thrownAt(
            new TableRuntimeException(
                "java.lang.RuntimeException: java.lang.ArithmeticException: / by zero"),
            "org.apache.flink.table.runtime.functions.SqlJsonUtils",
            "jsonValue",
            "BatchExecCalc$4",
            "processElement");
    ArithmeticException bare = thrownAt(new ArithmeticException(), "BatchExecCalc$5", "process");
    TableRuntimeException onlyAName =
        thrownAt(
            new TableRuntimeException("java.lang.ArithmeticException"),
            "org.apache.flink.table.runtime.functions.SqlJsonUtils",
            "jsonValue",
            "BatchExecCalc$4",
            "processElement");

    assertThat(JobFailures.raisedByTheQuery(twice)).contains("/ by zero");
    assertThat(JobFailures.raisedByTheQuery(bare)).contains("ArithmeticException");
    assertThat(JobFailures.raisedByTheQuery(onlyAName)).contains("ArithmeticException");
    ArithmeticException anonymous =
        thrownAt(new ArithmeticException() {}, "BatchExecCalc$5", "process");
    assertThat(JobFailures.raisedByTheQuery(anonymous)).get().asString().isNotBlank();
  }

  @Test
  void aCharsetThatLooksLikeAClassNameStaysWhole() {
    for (String charset : new String[] {"x.Error", "my.TypeError", "utf.8Error", "a.Exception"}) {
      java.io.UnsupportedEncodingException unknown =
          thrownAt(
              new java.io.UnsupportedEncodingException(charset),
              "java.lang.String",
              "lookupCharset",
              "BatchExecCalc$6",
              "processElement");
      assertThat(JobFailures.raisedByTheQuery(unknown)).contains(charset);
    }
  }

  @Test
  void aLongDottedMessageIsDescribedWithoutOverflowingTheStack() {
    String dotted = "a.".repeat(20_000) + "b";
    IllegalArgumentException charset =
        thrownAt(
            new IllegalArgumentException(dotted),
            "java.nio.charset.Charset",
            "checkName",
            "BatchExecCalc$6",
            "processElement");
    String names = "java.lang.RuntimeException: ".repeat(5_000) + "/ by zero";
    TableRuntimeException manyNames =
        thrownAt(
            new TableRuntimeException(names),
            "org.apache.flink.table.runtime.functions.SqlJsonUtils",
            "jsonValue",
            "BatchExecCalc$4",
            "processElement");

    assertThat(JobFailures.raisedByTheQuery(charset)).contains(dotted);
    assertThat(JobFailures.raisedByTheQuery(manyNames)).contains("/ by zero");
  }

  @Test
  void onlyIcebergsChecksOfAScansSnapshotRefOrTimeAreARefusedReadOption() {
    IllegalArgumentException snapshot =
        thrownAt(
            new IllegalArgumentException("Cannot find snapshot with ID 1"),
            "org.apache.iceberg.relocated.com.google.common.base.Preconditions",
            "checkArgument",
            "org.apache.iceberg.SnapshotScan",
            "useSnapshot",
            "org.apache.iceberg.BaseTableScan",
            "useSnapshot",
            "org.apache.iceberg.flink.source.FlinkSplitPlanner",
            "planTasks",
            "org.apache.iceberg.flink.source.FlinkSplitPlanner",
            "planIcebergSourceSplits");
    // Reading a manifest below the same planTasks: the table's files, not the statement.
    IllegalArgumentException manifest =
        thrownAt(
            new IllegalArgumentException("Invalid partition field"),
            "org.apache.iceberg.relocated.com.google.common.base.Preconditions",
            "checkArgument",
            "org.apache.iceberg.ManifestReader",
            "open",
            "org.apache.iceberg.BaseIncrementalScan",
            "planFiles",
            "org.apache.iceberg.flink.source.FlinkSplitPlanner",
            "planTasks");
    IllegalArgumentException floe =
        thrownAt(
            new IllegalArgumentException("Cannot find snapshot with ID 1"),
            "dev.floe.flink.session.SourcePins",
            "pin",
            "org.apache.iceberg.flink.source.FlinkSplitPlanner",
            "planTasks");
    IllegalStateException notAnArgument =
        thrownAt(
            new IllegalStateException("Cannot find snapshot with ID 1"),
            "org.apache.iceberg.SnapshotScan",
            "useSnapshot",
            "org.apache.iceberg.flink.source.FlinkSplitPlanner",
            "planTasks");

    assertThat(JobFailures.refusedReadOption(new RuntimeException("planning failed", snapshot)))
        .contains(
            "Cannot find snapshot with ID 1 (a read option of an Iceberg table: floe snapshots"
                + " and floe tags list the snapshots and refs a table has)");
    assertThat(JobFailures.refusedReadOption(inAFailedJob(snapshot))).isPresent();
    assertThat(JobFailures.refusedReadOption(manifest)).isEmpty();
    assertThat(JobFailures.refusedReadOption(floe)).isEmpty();
    assertThat(JobFailures.refusedReadOption(notAnArgument)).isEmpty();
    assertThat(JobFailures.raisedByTheQuery(snapshot)).isEmpty();
  }

  @Test
  void aReadOptionIcebergCannotParseAsANumberIsRefusedButNotANumberParsedElsewhere() {
    NumberFormatException option =
        thrownAt(
            new NumberFormatException("For input string: \"abc\""),
            "java.lang.NumberFormatException",
            "forInputString",
            "java.lang.Long",
            "parseLong",
            "org.apache.iceberg.flink.FlinkConfParser$ConfParser",
            "parse",
            "org.apache.iceberg.flink.FlinkConfParser$LongConfParser",
            "parseOptional",
            "org.apache.iceberg.flink.FlinkReadConf",
            "snapshotId");
    // Parsed by another of Iceberg's utilities below the read configuration: not its option parser.
    NumberFormatException elsewhere =
        thrownAt(
            new NumberFormatException("For input string: \"abc\""),
            "java.lang.Long",
            "parseLong",
            "org.apache.iceberg.util.PropertyUtil",
            "propertyAsLong",
            "org.apache.iceberg.flink.FlinkReadConf",
            "splitSize");

    assertThat(JobFailures.refusedReadOption(new RuntimeException("planning failed", option)))
        .contains(
            "a read option of an Iceberg table (a query hint or a table property) cannot be"
                + " read: For input string: \"abc\"");
    assertThat(JobFailures.refusedReadOption(elsewhere)).isEmpty();
  }

  @Test
  void aDurationOrAChoiceIcebergsReadConfigurationCannotParseIsRefusedButNotItsWriteOptions() {
    IllegalArgumentException duration =
        thrownAt(
            new IllegalArgumentException("text does not start with a number"),
            "org.apache.flink.util.TimeUtils",
            "parseDuration",
            "org.apache.iceberg.flink.FlinkConfParser$DurationConfParser",
            "parseOptional",
            "org.apache.iceberg.flink.FlinkReadConf",
            "monitorInterval");
    IllegalArgumentException choice =
        thrownAt(
            new IllegalArgumentException("No enum constant ...StreamingStartingStrategy.NOPE"),
            "java.lang.Enum",
            "valueOf",
            "org.apache.iceberg.flink.FlinkConfParser$EnumConfParser",
            "parse",
            "org.apache.iceberg.flink.FlinkReadConf",
            "startingStrategy");
    IllegalArgumentException writeOption =
        thrownAt(
            new IllegalArgumentException("No enum constant ...DistributionMode.NOPE"),
            "java.lang.Enum",
            "valueOf",
            "org.apache.iceberg.flink.FlinkConfParser$EnumConfParser",
            "parse",
            "org.apache.iceberg.flink.FlinkWriteConf",
            "distributionMode");

    assertThat(JobFailures.refusedReadOption(duration))
        .contains(
            "a read option of an Iceberg table (a query hint or a table property) cannot be read:"
                + " text does not start with a number");
    assertThat(JobFailures.refusedReadOption(choice)).isPresent();
    assertThat(JobFailures.refusedReadOption(writeOption)).isEmpty();
  }

  /** {@code error} with the stack (class, method, class, method, ...) it was thrown from. */
  private static <T extends Throwable> T thrownAt(T error, String... classesAndMethods) {
    StackTraceElement[] frames = new StackTraceElement[classesAndMethods.length / 2];
    for (int i = 0; i < frames.length; i++) {
      frames[i] =
          new StackTraceElement(classesAndMethods[2 * i], classesAndMethods[2 * i + 1], null, -1);
    }
    error.setStackTrace(frames);
    return error;
  }

  private static RuntimeException inAFailedJob(Throwable taskFailure) {
    return raisedByFlink(
        new RuntimeException(
            "Job execution failed.",
            raisedByFlink(new RuntimeException("task failed", taskFailure))));
  }

  /** {@code wrapper} as if Flink had thrown it: one of Floe's own stops the search. */
  private static RuntimeException raisedByFlink(RuntimeException wrapper) {
    wrapper.setStackTrace(
        new StackTraceElement[] {
          new StackTraceElement("org.apache.flink.runtime.taskmanager.Task", "run", "Task.java", 1)
        });
    return wrapper;
  }
}
