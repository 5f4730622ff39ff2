package io.herald.adapters.http;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A {@code multipart/form-data} body: text fields and one file. The boundary is derived from the
 * file's bytes' hash, so the same upload sends the same bytes (and no random state is needed).
 */
public record Multipart(String contentType, byte[] body) {

    public static Multipart of(Map<String, String> fields, String fileField, String fileName, String fileType,
                               byte[] file, String fileHash) {
        String boundary = "herald-" + fileHash.substring(0, Math.min(32, fileHash.length()));
        ByteArrayOutputStream out = new ByteArrayOutputStream(file.length + 512);
        fields.forEach((name, value) -> write(out, "--" + boundary + "\r\nContent-Disposition: form-data; name=\""
                + name + "\"\r\n\r\n" + value + "\r\n"));
        write(out, "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + fileField + "\"; filename=\""
                + fileName + "\"\r\nContent-Type: " + fileType + "\r\n\r\n");
        out.writeBytes(file);
        write(out, "\r\n--" + boundary + "--\r\n");
        return new Multipart("multipart/form-data; boundary=" + boundary, out.toByteArray());
    }

    private static void write(ByteArrayOutputStream out, String text) {
        out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }
}
