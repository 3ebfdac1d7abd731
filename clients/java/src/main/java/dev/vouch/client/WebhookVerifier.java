package dev.vouch.client;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Verifies a webhook delivery from its raw body and headers. Each signature scheme present must
 * verify:
 * <ul>
 *   <li>the contract's {@code x-service-signature}: lowercase hex HMAC-SHA256 over
 *       {@code <x-service-timestamp>.<body>} keyed by the whole secret string
 *       ({@code x-service-signature-previous} during a rotation);
 *   <li>Standard Webhooks' {@code webhook-signature}: space-separated {@code v1,<base64>} over
 *       {@code <webhook-id>.<webhook-timestamp>.<body>} keyed by the base64 part of
 *       {@code whsec_…}.
 * </ul>
 * Timestamps further than the tolerance (default 5 minutes) from now are refused; signatures are
 * compared in constant time ({@link MessageDigest#isEqual}).
 */
public final class WebhookVerifier {
  public static final Duration DEFAULT_TOLERANCE = Duration.ofMinutes(5);

  /** The delivery is not authentic: a missing header, a stale timestamp or a wrong signature. */
  public static final class VerificationException extends Exception {
    private static final long serialVersionUID = 1L;

    public VerificationException(String message) { super(message); }
  }

  private WebhookVerifier() {}

  /** {@link #verify(List, Map, byte[], Duration, long)} with one secret, 5 minutes and now. */
  public static Types.Event verify(String secret, Map<String, ?> headers, byte[] body)
      throws VerificationException {
    return verify(List.of(secret), headers, body, DEFAULT_TOLERANCE, System.currentTimeMillis() / 1000);
  }

  /**
   * Returns the delivered event when the delivery is authentic.
   *
   * @param secrets the webhook's {@code whsec_…} secret, or several (old and new during a rotation)
   * @param headers names in any case; values a String or a List of Strings (as
   *     {@code com.sun.net.httpserver.Headers} or a servlet's header map hold them)
   * @param body the raw body as received, never re-serialised JSON
   * @param nowSeconds now, in unix seconds
   */
  public static Types.Event verify(List<String> secrets, Map<String, ?> headers, byte[] body,
      Duration tolerance, long nowSeconds) throws VerificationException {
    if (secrets == null || secrets.isEmpty() || secrets.stream().anyMatch(s -> s == null || s.isEmpty())) {
      throw new VerificationException("no secret given");
    }
    Map<String, String> h = lower(headers);
    int schemes = 0;

    String standard = h.get("webhook-signature");
    if (standard != null) {
      schemes++;
      String id = h.get("webhook-id");
      String timestamp = h.get("webhook-timestamp");
      if (id == null || id.isEmpty()) throw new VerificationException("webhook-id is missing");
      checkTimestamp(timestamp, tolerance, nowSeconds);
      byte[] signed = concat((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8), body);
      List<byte[]> expected = new ArrayList<>();
      for (String secret : secrets) {
        expected.add(Base64.getEncoder().encode(hmac(standardKey(secret), signed)));
      }
      boolean matched = false;
      for (String token : standard.split(" ")) {
        int comma = token.indexOf(',');
        if (comma < 0 || !token.substring(0, comma).equals("v1")) continue;
        byte[] received = token.substring(comma + 1).getBytes(StandardCharsets.UTF_8);
        for (byte[] candidate : expected) matched |= MessageDigest.isEqual(candidate, received);
      }
      if (!matched) throw new VerificationException("no webhook-signature matches");
    }

    String service = h.get("x-service-signature");
    if (service != null) {
      schemes++;
      String timestamp = h.get("x-service-timestamp");
      checkTimestamp(timestamp, tolerance, nowSeconds);
      byte[] signed = concat((timestamp + ".").getBytes(StandardCharsets.UTF_8), body);
      List<byte[]> expected = new ArrayList<>();
      for (String secret : secrets) {
        expected.add(HexFormat.of().formatHex(hmac(secret.getBytes(StandardCharsets.UTF_8), signed))
            .getBytes(StandardCharsets.US_ASCII));
      }
      List<String> received = new ArrayList<>(List.of(service));
      String previous = h.get("x-service-signature-previous");
      if (previous != null && !previous.isEmpty()) received.add(previous);
      boolean matched = false;
      for (String signature : received) {
        byte[] bytes = signature.trim().toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8);
        for (byte[] candidate : expected) matched |= MessageDigest.isEqual(candidate, bytes);
      }
      if (!matched) throw new VerificationException("x-service-signature does not match");
    }

    if (schemes == 0) {
      throw new VerificationException("no signature header (webhook-signature, x-service-signature)");
    }
    try {
      return Transport.JSON.readValue(body, Types.Event.class);
    } catch (java.io.IOException e) {
      throw new VerificationException("the body is not a JSON event");
    }
  }

  private static Map<String, String> lower(Map<String, ?> headers) {
    Map<String, String> out = new TreeMap<>();
    for (var entry : headers.entrySet()) {
      if (entry.getKey() == null || entry.getValue() == null) continue;
      String name = entry.getKey().toLowerCase(Locale.ROOT);
      Object value = entry.getValue();
      String text;
      if (value instanceof List<?> list) {
        List<String> parts = new ArrayList<>();
        for (Object part : list) parts.add(String.valueOf(part));
        text = String.join(name.equals("webhook-signature") ? " " : ",", parts);
      } else {
        text = String.valueOf(value);
      }
      out.merge(name, text, (a, b) -> a + (name.equals("webhook-signature") ? " " : ",") + b);
    }
    return out;
  }

  private static void checkTimestamp(String value, Duration tolerance, long nowSeconds)
      throws VerificationException {
    if (value == null || !value.trim().matches("\\d{1,18}")) {
      throw new VerificationException("the timestamp header is missing or not unix seconds");
    }
    if (Math.abs(nowSeconds - Long.parseLong(value.trim())) > tolerance.toSeconds()) {
      throw new VerificationException("the timestamp is outside the tolerance");
    }
  }

  private static byte[] standardKey(String secret) throws VerificationException {
    String encoded = secret.startsWith("whsec_") ? secret.substring("whsec_".length()) : secret;
    try {
      byte[] key = Base64.getDecoder().decode(encoded);
      if (key.length > 0) return key;
    } catch (IllegalArgumentException e) {
      // reported below
    }
    throw new VerificationException("the secret is not a whsec_ base64 secret");
  }

  private static byte[] hmac(byte[] key, byte[] message) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(message);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is unavailable", e);
    }
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
