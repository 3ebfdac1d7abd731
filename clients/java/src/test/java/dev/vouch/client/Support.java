package dev.vouch.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Predicate;

/** What the tests share: the live server, fresh accounts, a webhook receiver, a dropping server. */
final class Support {
  static final String BASE_URL = required("VOUCH_URL");
  static final String ADMIN_KEY = required("VOUCH_ADMIN_KEY");
  static final List<String> ALL_SCOPES = List.of("projects:read", "projects:write", "tests:read",
      "tests:write", "webhooks:read", "webhooks:write", "events:read");
  static final String MODULE = String.join("\n",
      "exports.abs = (n) => (n < 0 ? -n : n);",
      "exports.clamp = function clamp(x, lo, hi) {",
      "  if (x < lo) return lo;",
      "  if (x > hi) return hi;",
      "  return x;",
      "};", "");

  private Support() {}

  private static String required(String name) {
    String value = System.getenv(name);
    if (value == null || value.isEmpty()) {
      throw new IllegalStateException("set VOUCH_URL and VOUCH_ADMIN_KEY (scripts/test_clients.sh does)");
    }
    return value;
  }

  static VouchClient admin() { return new VouchClient(BASE_URL, ADMIN_KEY); }

  /** The key of a new account, so that each test sees only its own records. */
  static String freshKey(String plan, List<String> scopes) {
    return admin().keys.create(new Types.CreateKeyRequest(
        "java-" + UUID.randomUUID().toString().substring(0, 12), scopes, plan, null)).key();
  }

  static VouchClient freshAccount() {
    return new VouchClient(BASE_URL, freshKey("enterprise", ALL_SCOPES));
  }

  /** One request the receiver got: headers (lowercase names) and the raw body. */
  record Received(Map<String, List<String>> headers, byte[] body) {
    JsonNode json() {
      try {
        return Transport.JSON.readTree(body);
      } catch (IOException e) {
        return Transport.JSON.nullNode();
      }
    }
    String type() { return json().path("type").asText(); }
  }

  /** Answers 200 and keeps every request. */
  static final class Receiver implements AutoCloseable {
    final List<Received> requests = new ArrayList<>();
    private final HttpServer server;
    final String url;

    Receiver() throws IOException {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      server.createContext("/", exchange -> {
        byte[] body = exchange.getRequestBody().readAllBytes();
        Map<String, List<String>> headers = new TreeMap<>();
        exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(), List.copyOf(v)));
        synchronized (this) {
          requests.add(new Received(headers, body));
          notifyAll();
        }
        exchange.sendResponseHeaders(200, -1);
        exchange.close();
      });
      server.start();
      url = "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
    }

    synchronized Received waitFor(Predicate<Received> predicate) throws InterruptedException {
      long deadline = System.currentTimeMillis() + 30_000;
      while (true) {
        for (Received r : requests) if (predicate.test(r)) return r;
        long left = deadline - System.currentTimeMillis();
        if (left <= 0) throw new AssertionError("no matching delivery within 30 s; got " + requests.size());
        wait(left);
      }
    }

    @Override public void close() { server.stop(0); }
  }

  /** Accepts connections, reads each request's head, closes without answering. */
  static final class DroppingServer implements AutoCloseable {
    final List<String> heads = new ArrayList<>();
    private final ServerSocket socket;
    final String url;

    DroppingServer() throws IOException {
      socket = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
      url = "http://127.0.0.1:" + socket.getLocalPort();
      Thread thread = new Thread(this::serve);
      thread.setDaemon(true);
      thread.start();
    }

    private void serve() {
      while (true) {
        try (Socket connection = socket.accept()) {
          InputStream in = connection.getInputStream();
          StringBuilder head = new StringBuilder();
          int c;
          while ((c = in.read()) != -1) {
            head.append((char) c);
            if (head.toString().endsWith("\r\n\r\n")) break;
          }
          synchronized (this) { heads.add(head.toString()); }
        } catch (IOException e) {
          return;
        }
      }
    }

    synchronized List<String> headerValues(String name) {
      List<String> out = new ArrayList<>();
      for (String head : heads) {
        for (String line : head.split("\r\n")) {
          int colon = line.indexOf(':');
          if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
            out.add(line.substring(colon + 1).trim());
          }
        }
      }
      return out;
    }

    synchronized int count() { return heads.size(); }

    @Override public void close() throws IOException { socket.close(); }
  }

  static byte[] utf8(String text) { return text.getBytes(StandardCharsets.UTF_8); }
}
