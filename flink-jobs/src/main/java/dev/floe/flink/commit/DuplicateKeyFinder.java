package dev.floe.flink.commit;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Keyed by (check, key hash): reports each key the second time it is seen, once. In batch mode
 * Flink sorts by key, so the state is small and the check scales with the slice.
 */
public final class DuplicateKeyFinder
    extends KeyedProcessFunction<Tuple3<Integer, Long, Long>, Tuple3<Integer, Long, Long>, byte[]> {
  private transient ValueState<Boolean> seen;
  private transient ValueState<Boolean> reported;

  @Override
  public void open(OpenContext openContext) {
    seen = getRuntimeContext().getState(new ValueStateDescriptor<>("seen", Types.BOOLEAN));
    reported = getRuntimeContext().getState(new ValueStateDescriptor<>("reported", Types.BOOLEAN));
  }

  @Override
  public void processElement(
      Tuple3<Integer, Long, Long> key, Context context, Collector<byte[]> out) throws Exception {
    if (seen.value() == null) {
      seen.update(true);
    } else if (reported.value() == null) {
      reported.update(true);
      out.collect(CommitMessages.encode(new CommitMessage.DuplicateKey(key.f0, key.f1, key.f2)));
    }
  }
}
