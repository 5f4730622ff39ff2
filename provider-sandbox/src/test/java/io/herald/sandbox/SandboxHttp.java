package io.herald.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.platform.wire.Json;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.UUID;
import javax.imageio.ImageIO;

/** Calls to the sandbox as a provider's client makes them, over real HTTP, and images to send. */
final class SandboxHttp {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    SandboxHttp(String base) {
        this.base = base;
    }

    HttpRequest.Builder request(String method, String pathOrUrl, HttpRequest.BodyPublisher body) {
        String url = pathOrUrl.startsWith("http") ? pathOrUrl : base + pathOrUrl;
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).method(method, body);
    }

    HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Sends and says what came back: an answer, a timeout, or a connection closed without one. */
    Outcome attempt(HttpRequest request) {
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            return new Outcome(response.statusCode(), response.body(), null);
        } catch (java.net.http.HttpTimeoutException timeout) {
            return new Outcome(0, null, "timeout");
        } catch (IOException closed) {
            return new Outcome(0, null, "closed");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    record Outcome(int status, String body, String failure) {
        JsonNode json() {
            return Json.parse(body);
        }
    }

    static HttpRequest.BodyPublisher form(String... pairs) {
        StringBuilder form = new StringBuilder();
        for (int i = 0; i < pairs.length; i += 2) {
            if (form.length() > 0) {
                form.append('&');
            }
            form.append(enc(pairs[i])).append('=').append(enc(pairs[i + 1]));
        }
        return HttpRequest.BodyPublishers.ofString(form.toString());
    }

    static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** A multipart body with one file part and text fields; returns the boundary's content type and the bytes. */
    record Multipart(String contentType, byte[] body) {
        static Multipart of(String fileField, String fileName, String fileType, byte[] file, String... fields) {
            String boundary = "----sandbox" + UUID.randomUUID().toString().replace("-", "");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try {
                for (int i = 0; i < fields.length; i += 2) {
                    out.write(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + fields[i]
                            + "\"\r\n\r\n" + fields[i + 1] + "\r\n").getBytes(StandardCharsets.UTF_8));
                }
                out.write(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + fileField
                        + "\"; filename=\"" + fileName + "\"\r\nContent-Type: " + fileType + "\r\n\r\n")
                        .getBytes(StandardCharsets.UTF_8));
                out.write(file);
                out.write(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return new Multipart("multipart/form-data; boundary=" + boundary, out.toByteArray());
        }
    }

    static byte[] image(String format, int width, int height) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        image.setRGB(0, 0, 0x336699);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, format, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
