package io.herald.adapters.http;

import io.herald.adapters.outbound.OutboundGuard;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.http.HttpHeaders;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.nio.AsyncRequestProducer;
import org.apache.hc.client5.http.async.methods.AbstractBinResponseConsumer;
import org.apache.hc.core5.http.nio.entity.AsyncEntityProducers;
import org.apache.hc.core5.http.nio.support.AsyncRequestBuilder;
import org.apache.hc.core5.http2.HttpVersionPolicy;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.util.Timeout;

/**
 * The HTTP client for hosts a workspace user typed in. Its {@link DnsResolver} is the
 * {@link OutboundGuard}: the client connects only to the addresses the guard resolved and allowed,
 * so there is no gap between the check and the connection for DNS rebinding to use. The JDK
 * client has no such hook on Java 17. One request per connection, no redirects, no retries, no
 * cookies; answers are read up to a limit.
 */
final class GuardedClient {

    /** What came back: status, headers and the body as far as it was read. */
    record Answer(int status, HttpHeaders headers, LimitedBody body) {
    }

    private final CloseableHttpAsyncClient client;
    private final RequestConfig requestConfig;
    private final Executor completions;
    private final int limit;

    GuardedClient(OutboundGuard guard, Timeout connectTimeout, Timeout readTimeout, ThreadFactory ioThreads,
                  Executor completions, int limit) {
        this.completions = completions;
        this.limit = limit;
        DnsResolver resolver = new DnsResolver() {
            @Override
            public InetAddress[] resolve(String host) throws UnknownHostException {
                return guard.resolve(host);
            }

            @Override
            public String resolveCanonicalHostname(String host) {
                return host;
            }
        };
        this.client = HttpAsyncClients.custom()
                .setConnectionManager(PoolingAsyncClientConnectionManagerBuilder.create()
                        .setDnsResolver(resolver)
                        .setDefaultConnectionConfig(ConnectionConfig.custom()
                                .setConnectTimeout(connectTimeout)
                                .setSocketTimeout(readTimeout)
                                .build())
                        .setMaxConnTotal(1000)
                        .setMaxConnPerRoute(100)
                        .build())
                .setIOReactorConfig(IOReactorConfig.custom().setIoThreadCount(1).setSoTimeout(readTimeout).build())
                .setThreadFactory(ioThreads)
                .setVersionPolicy(HttpVersionPolicy.FORCE_HTTP_1)
                .setConnectionReuseStrategy((request, response, context) -> false)
                .disableRedirectHandling()
                .disableAutomaticRetries()
                .disableCookieManagement()
                .disableAuthCaching()
                .build();
        this.requestConfig = RequestConfig.custom().setResponseTimeout(readTimeout).setRedirectsEnabled(false).build();
        client.start();
    }

    CompletableFuture<Answer> send(OutgoingRequest request) {
        AsyncRequestBuilder builder = AsyncRequestBuilder.create(request.method()).setUri(request.uri());
        request.headers().forEach(builder::addHeader);
        if (request.hasBody()) {
            builder.setEntity(AsyncEntityProducers.create(request.bodyBytes(),
                    ContentType.parse(request.contentType())));
        }
        AsyncRequestProducer producer = builder.build();
        HttpClientContext context = HttpClientContext.create();
        context.setRequestConfig(requestConfig);
        Consumer consumer = new Consumer(limit);
        CompletableFuture<Answer> result = new CompletableFuture<>();
        // completions leave the client's I/O thread: what adapters and their callers do next must not hold it
        client.execute(producer, consumer, null, context, new FutureCallback<>() {
            @Override
            public void completed(Answer answer) {
                completions.execute(() -> result.complete(answer));
            }

            @Override
            public void failed(Exception failure) {
                if (failure instanceof BodyTooLarge && consumer.status > 0) {
                    Answer tooLarge = new Answer(consumer.status, consumer.headers, LimitedBody.TOO_LARGE);
                    completions.execute(() -> result.complete(tooLarge));
                } else {
                    completions.execute(() -> result.completeExceptionally(failure));
                }
            }

            @Override
            public void cancelled() {
                completions.execute(() -> result.completeExceptionally(new IOException("the call was cancelled")));
            }
        });
        return result;
    }

    /** Stops reading an answer past the limit. */
    private static final class BodyTooLarge extends IOException {
        BodyTooLarge() {
            super("the answer is larger than the limit", null);
        }
    }

    private static final class Consumer extends AbstractBinResponseConsumer<Answer> {
        private final int limit;
        private volatile int status;
        private volatile HttpHeaders headers;
        private LimitedBody.Collector collector;

        Consumer(int limit) {
            this.limit = limit;
        }

        @Override
        protected void start(HttpResponse response, ContentType contentType) {
            Map<String, List<String>> values = new LinkedHashMap<>();
            for (Header header : response.getHeaders()) {
                values.computeIfAbsent(header.getName(), k -> new ArrayList<>()).add(header.getValue());
            }
            headers = HttpHeaders.of(values, (name, value) -> true);
            status = response.getCode();
            collector = new LimitedBody.Collector(limit, LimitedBody.charsetOf(
                    contentType == null ? null : contentType.toString()));
        }

        @Override
        protected int capacityIncrement() {
            return 64 * 1024;
        }

        @Override
        protected void data(ByteBuffer data, boolean endOfStream) throws IOException {
            if (!collector.add(data)) {
                throw new BodyTooLarge();
            }
        }

        @Override
        protected Answer buildResult() {
            return new Answer(status, headers, collector == null ? new LimitedBody("", false) : collector.body());
        }

        @Override
        public void releaseResources() {
            // the collected bytes go with the consumer
        }
    }

    static Timeout timeout(java.time.Duration duration) {
        return Timeout.of(duration.toMillis(), TimeUnit.MILLISECONDS);
    }
}
