package dev.prefetch.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import org.junit.jupiter.api.BeforeAll;

/**
 * A test class over the generated files that every such class shares ({@link InspectFiles#shared}),
 * parsing the CLI's JSON with one mapper.
 */
abstract class InspectFilesTest {

  static final ObjectMapper MAPPER = new ObjectMapper();

  static InspectFiles files;

  @BeforeAll
  static void sharedFiles() throws IOException {
    files = InspectFiles.shared();
  }
}
