package io.herald.adapters.threads;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.adapters.http.CannedProvider;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.TokenRefresh;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How a Threads token refresh reads each answer, through a real socket: only Threads' "too new"
 * is not yet; 190 (any status) or a 401 is invalid; any other refusal, a 5xx or a success without
 * a token is a failed refresh, tried again later.
 */
class ThreadsTokensTest {

    private static final String TOKEN = "THQ-canned-token";

    private final CannedProvider provider = new CannedProvider();
    private final ThreadsTokens tokens = new ThreadsTokens(new ThreadsApi(new ProviderHttp("threads",
            Duration.ofSeconds(2), Duration.ofSeconds(3), Clock.systemUTC()), provider.baseUrl() + "/v1.0"));
    private final ChannelConnection connection = new ChannelConnection(new WorkspaceId("acme"),
            new ChannelId("th"), ThreadsPlugin.TYPE, new ThreadsSettings("1234"), new ThreadsSecrets(TOKEN, null),
            false);

    ThreadsTokensTest() throws IOException {
    }

    @AfterEach
    void close() {
        provider.close();
    }

    private TokenRefresh.Result refresh(int status, String body) throws Exception {
        provider.answer(new CannedProvider.Answer(status, Map.of(), body));
        TokenRefresh.Result result = tokens.refresh(connection).get(10, TimeUnit.SECONDS);
        assertThat(result.toString()).doesNotContain(TOKEN);
        return result;
    }

    private static String error(int code, Integer subcode, String message) {
        return "{\"error\":{\"message\":\"" + message + "\",\"type\":\"THApiException\",\"code\":" + code
                + (subcode == null ? "" : ",\"error_subcode\":" + subcode) + ",\"fbtrace_id\":\"Ax\"}}";
    }

    @Test
    void aRenewedTokenIsStoredWithItsExpiry() throws Exception {
        TokenRefresh.Result result = refresh(200, "{\"access_token\":\"THQ-new\",\"token_type\":\"bearer\","
                + "\"expires_in\":5184000}");
        assertThat(result).isInstanceOf(TokenRefresh.Result.Renewed.class);
        assertThat(((ThreadsSecrets) ((TokenRefresh.Result.Renewed) result).secrets()).accessToken())
                .isEqualTo("THQ-new");
        assertThat(provider.received().get(0).uri()).contains("/refresh_access_token?grant_type=th_refresh_token")
                .doesNotContain(TOKEN);
    }

    @Test
    void onlyATokenTooNewIsNotYet() throws Exception {
        assertThat(refresh(400, error(10, null, "The access token is too new to be refreshed: it must be at least"
                + " 24 hours old"))).isInstanceOf(TokenRefresh.Result.NotYet.class);
        // another refusal with the same status is no "too new": a failed refresh, not a wait for the token to age
        assertThat(refresh(400, error(100, null, "Param grant_type must be th_refresh_token")))
                .isInstanceOf(TokenRefresh.Result.Failed.class);
        assertThat(refresh(400, "not json")).isInstanceOf(TokenRefresh.Result.Failed.class);
        assertThat(refresh(500, error(2, null, "An unexpected error has occurred.")))
                .isInstanceOf(TokenRefresh.Result.Failed.class);
        assertThat(refresh(200, "{\"token_type\":\"bearer\"}")).isInstanceOf(TokenRefresh.Result.Failed.class);
    }

    @Test
    void anExpiredRevokedOrInvalidatedTokenIsInvalid() throws Exception {
        TokenRefresh.Result invalidated = refresh(400, error(190, 460, "Error validating access token: The session"
                + " has been invalidated"));
        assertThat(invalidated).isInstanceOf(TokenRefresh.Result.Invalid.class);
        assertThat(((TokenRefresh.Result.Invalid) invalidated).providerCode()).isEqualTo("190/460");
        assertThat(refresh(400, error(190, 463, "Error validating access token: Session has expired")))
                .isInstanceOf(TokenRefresh.Result.Invalid.class);
        assertThat(refresh(401, error(190, null, "Invalid OAuth access token - Cannot parse access token")))
                .isInstanceOf(TokenRefresh.Result.Invalid.class);
    }
}
