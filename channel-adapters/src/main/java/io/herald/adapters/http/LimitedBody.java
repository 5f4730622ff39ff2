package io.herald.adapters.http;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A provider's answer body, read up to a limit. Past the limit reading stops (the connection is
 * dropped) and only the fact that the answer was too large is kept: a hostile or broken server
 * cannot fill Herald's memory or its attempt details.
 */
record LimitedBody(String text, boolean tooLarge) {

    static final LimitedBody TOO_LARGE = new LimitedBody("", true);

    /** Collects bytes up to {@code limit}; {@link #add} answers false once the limit is passed. */
    static final class Collector {
        private final int limit;
        private final Charset charset;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        Collector(int limit, Charset charset) {
            this.limit = limit;
            this.charset = charset;
        }

        boolean add(ByteBuffer buffer) {
            int n = buffer.remaining();
            if (bytes.size() + (long) n > limit) {
                buffer.position(buffer.limit());
                return false;
            }
            byte[] chunk = new byte[n];
            buffer.get(chunk);
            bytes.write(chunk, 0, n);
            return true;
        }

        LimitedBody body() {
            return new LimitedBody(bytes.toString(charset), false);
        }
    }

    /** The charset a Content-Type names, UTF-8 when it names none or an unknown one. */
    static Charset charsetOf(String contentType) {
        if (contentType != null) {
            for (String part : contentType.split(";")) {
                String p = part.trim().toLowerCase(Locale.ROOT);
                if (p.startsWith("charset=")) {
                    try {
                        return Charset.forName(p.substring("charset=".length()).replace("\"", "").trim());
                    } catch (RuntimeException unknown) {
                        return StandardCharsets.UTF_8;
                    }
                }
            }
        }
        return StandardCharsets.UTF_8;
    }

    /** For the JDK client: the body as text, or {@link #TOO_LARGE} after cancelling the rest. */
    static HttpResponse.BodyHandler<LimitedBody> handler(int limit) {
        return info -> new Subscriber(new Collector(limit, charsetOf(info.headers().firstValue("Content-Type")
                .orElse(null))));
    }

    private static final class Subscriber implements HttpResponse.BodySubscriber<LimitedBody> {
        private final Collector collector;
        private final CompletableFuture<LimitedBody> result = new CompletableFuture<>();
        private Flow.Subscription subscription;

        Subscriber(Collector collector) {
            this.collector = collector;
        }

        @Override
        public CompletionStage<LimitedBody> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            if (result.isDone()) {
                return;
            }
            for (ByteBuffer buffer : buffers) {
                if (!collector.add(buffer)) {
                    result.complete(TOO_LARGE);
                    subscription.cancel();
                    return;
                }
            }
        }

        @Override
        public void onError(Throwable failure) {
            result.completeExceptionally(failure);
        }

        @Override
        public void onComplete() {
            result.complete(collector.body());
        }
    }
}
