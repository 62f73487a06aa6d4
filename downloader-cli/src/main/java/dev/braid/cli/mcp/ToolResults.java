package dev.braid.cli.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.braid.client.DownloadView;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What a tool answers: structured content (a JSON object) and the same object as text, for clients
 * that read text only (as the protocol asks of a tool with structured results). A download is
 * the object {@code braid status --json} prints, field for field: the command's own renderer,
 * handed in, so the two never differ.
 */
public final class ToolResults {
  private static final TypeReference<LinkedHashMap<String, Object>> OBJECT = new TypeReference<>() {};

  private final Function<DownloadView, String> statusJson;
  private final ObjectMapper json;

  /**
   * Results that show downloads as {@code statusJson} does.
   *
   * @param statusJson a download as {@code braid status --json} prints it (one JSON object)
   * @param json the mapper that reads that object and writes the others
   */
  public ToolResults(Function<DownloadView, String> statusJson, ObjectMapper json) {
    if (statusJson == null || json == null) {
      throw new IllegalArgumentException("results need the status renderer and a JSON mapper");
    }
    this.statusJson = statusJson;
    this.json = json;
  }

  /** {@return one download's fields} */
  CallToolResult download(DownloadView d) {
    return success(fields(d));
  }

  /** {@return the download's fields and whether it stopped (completed, failed or paused) before the wait ended} */
  CallToolResult waited(DownloadView d, boolean finished) {
    Map<String, Object> o = fields(d);
    o.put("finished", finished);
    return success(o);
  }

  /** {@return a page of the queue: its downloads, and how many the queue holds in all} */
  CallToolResult page(List<DownloadView> page, long offset, long total) {
    List<Map<String, Object>> downloads = new ArrayList<>();
    for (DownloadView d : page) {
      downloads.add(fields(d));
    }
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("downloads", downloads);
    o.put("offset", offset);
    o.put("total", total);
    return success(o);
  }

  /** {@return that download {@code id} left the queue, and whether its file went too} */
  CallToolResult removed(long id, boolean fileDeleted) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("id", id);
    o.put("removed", true);
    o.put("fileDeleted", fileDeleted);
    return success(o);
  }

  /** {@return a tool error: the call did nothing, and {@code message} says why} */
  static CallToolResult error(String message) {
    return CallToolResult.builder().addTextContent(message).isError(true).build();
  }

  private Map<String, Object> fields(DownloadView d) {
    try {
      return json.readValue(statusJson.apply(d), OBJECT);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("braid status --json printed no JSON object for #" + d.id(), e);
    }
  }

  private CallToolResult success(Map<String, Object> o) {
    try {
      return CallToolResult.builder().structuredContent(o).addTextContent(json.writeValueAsString(o)).isError(false).build();
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a result of maps, lists, strings and numbers is always JSON", e);
    }
  }
}
