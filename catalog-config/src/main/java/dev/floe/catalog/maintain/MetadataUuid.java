package dev.floe.catalog.maintain;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.zip.GZIPInputStream;
import org.apache.iceberg.io.FileIO;

/**
 * The {@code table-uuid} a metadata.json names, read from the start of the file: Iceberg writes it
 * among the first fields, so orphan removal can tell whose a stray metadata file is without parsing
 * the whole of it (a busy table's metadata folder holds hundreds, each up to megabytes).
 */
final class MetadataUuid {
  private static final JsonFactory JSON = new JsonFactory();

  private MetadataUuid() {}

  /**
   * @throws UncheckedIOException when the file cannot be read
   * @throws IllegalArgumentException when it is not a JSON object naming a table-uuid at its top
   *     level
   */
  static String read(FileIO io, String location) {
    try (InputStream raw = io.newInputFile(location).newStream();
        InputStream in = location.endsWith(".gz.metadata.json") ? new GZIPInputStream(raw) : raw;
        JsonParser parser = JSON.createParser(in)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new IllegalArgumentException("not a JSON object");
      }
      for (JsonToken token = parser.nextToken();
          token == JsonToken.FIELD_NAME;
          token = parser.nextToken()) {
        String field = parser.currentName();
        JsonToken value = parser.nextToken();
        if (field.equals("table-uuid") && value == JsonToken.VALUE_STRING) {
          return parser.getText();
        }
        parser.skipChildren();
      }
      throw new IllegalArgumentException("no table-uuid");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
