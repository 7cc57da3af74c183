package dev.floe.catalog.maintain;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
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
   * @throws NotMetadataException when it is not a JSON object naming a table-uuid at its top level
   *     (also when it is cut short: a failed commit's)
   */
  static String read(FileIO io, String location) {
    boolean gzip = location.endsWith(".gz.metadata.json") || location.endsWith(".metadata.json.gz");
    try (InputStream raw = io.newInputFile(location).newStream();
        InputStream in = gzip ? new GZIPInputStream(raw) : raw;
        JsonParser parser = JSON.createParser(in)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new NotMetadataException(location, "not a JSON object");
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
      throw new NotMetadataException(location, "no table-uuid");
    } catch (JsonProcessingException | java.util.zip.ZipException | java.io.EOFException e) {
      throw new NotMetadataException(location, e.getMessage());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether a file is named as a table metadata file, in either of Iceberg's spellings. */
  static boolean isMetadataJson(String location) {
    return location.endsWith(".metadata.json") || location.endsWith(".metadata.json.gz");
  }

  /** The file was read but is no table metadata: not JSON, cut short, or without a table-uuid. */
  static final class NotMetadataException extends IllegalArgumentException {
    NotMetadataException(String location, String reason) {
      super(location + " is no table metadata: " + reason);
    }
  }
}
