package io.herald.deploy.http;

import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.RequestBody;
import java.util.List;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The media upload reads its body itself (to stop at the size limit), so the OpenAPI document
 * would not show one: this names it, the image's bytes in one of the accepted types.
 */
@Configuration(proxyBeanMethods = false)
public class MediaApiDocs {

    static final String UPLOAD_PATH = "/api/v1/workspaces/{ws}/media";

    @Bean
    OpenApiCustomizer mediaUploadBody() {
        return openApi -> {
            PathItem upload = openApi.getPaths() == null ? null : openApi.getPaths().get(UPLOAD_PATH);
            if (upload == null || upload.getPost() == null) {
                return;
            }
            Content content = new Content();
            for (String type : List.of("image/jpeg", "image/png", "image/gif", "image/webp")) {
                content.addMediaType(type, new MediaType().schema(new Schema<>().type("string").format("binary")));
            }
            upload.getPost().requestBody(new RequestBody().required(true).content(content)
                    .description("The image itself, at most herald.media.max-bytes (8 MiB); its bytes must be of"
                            + " the declared type."));
        };
    }
}
