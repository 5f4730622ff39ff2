package io.herald.sandbox;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Every secret value the sandbox's OAuth servers handed out or hold — client secrets, codes, access
 * tokens (short-lived, long-lived, Page) — so that a test can look for each of them where none may
 * be: Herald's logs, events, views and redirects. {@code GET /sandbox/_admin/oauth/issued} lists
 * them, optionally of one provider.
 */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class OAuthIssued {

    /** One value: {@code kind} is {@code client_secret}, {@code code} or {@code token}. */
    public record Issued(String provider, String kind, String value) {
    }

    private final List<Issued> issued = new CopyOnWriteArrayList<>();

    /** Notes a value handed out by {@code provider}'s OAuth server. */
    public void note(String provider, String kind, String value) {
        issued.add(new Issued(provider, kind, value));
    }

    @GetMapping("/sandbox/_admin/oauth/issued")
    public Map<String, List<Issued>> list(@RequestParam(name = "provider", required = false) String provider) {
        return Map.of("issued", issued.stream().filter(i -> provider == null || i.provider().equals(provider))
                .toList());
    }
}
