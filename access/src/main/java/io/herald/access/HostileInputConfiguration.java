package io.herald.access;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.Module;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import java.io.IOException;
import java.time.temporal.Temporal;
import org.apache.catalina.core.StandardHost;
import org.springframework.boot.autoconfigure.jackson.Jackson2ObjectMapperBuilderCustomizer;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Hostile input meets the same strict rules everywhere: in the JSON reader and in Tomcat's own refusals. */
@Configuration(proxyBeanMethods = false)
public class HostileInputConfiguration {

    /**
     * A field named twice is refused: parsers disagree on which value wins, so a duplicate can
     * show one value to a checker and another to the handler. A number or boolean where text is
     * expected is refused too, as every other coercion already is.
     */
    @Bean
    Jackson2ObjectMapperBuilderCustomizer strictJson() {
        return builder -> builder
                .featuresToEnable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
                .postConfigurer(HostileInputConfiguration::noScalarsAsText);
    }

    static void noScalarsAsText(ObjectMapper mapper) {
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
    }

    /** A bare number is no time: docs/api.md#the-contract-in-one-page: times are ISO 8601 text, and Herald writes them so. */
    @Bean
    Module timesAsTextOnly() {
        SimpleModule module = new SimpleModule("herald-times-as-text-only");
        module.setDeserializerModifier(new BeanDeserializerModifier() {
            @Override
            public JsonDeserializer<?> modifyDeserializer(DeserializationConfig config, BeanDescription description,
                                                          JsonDeserializer<?> deserializer) {
                return Temporal.class.isAssignableFrom(description.getBeanClass())
                        ? new TextOnly(deserializer) : deserializer;
            }
        });
        return module;
    }

    private static final class TextOnly extends DelegatingDeserializer {
        TextOnly(JsonDeserializer<?> delegate) {
            super(delegate);
        }

        @Override
        protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> delegate) {
            return new TextOnly(delegate);
        }

        @Override
        public Object deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            if (!parser.hasToken(JsonToken.VALUE_STRING)) {
                return context.handleUnexpectedToken(handledType(), parser);
            }
            return super.deserialize(parser, context);
        }
    }

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemJsonFromTomcat() {
        return factory -> factory.addContextCustomizers(context -> {
            if (context.getParent() instanceof StandardHost host) {
                host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
            }
        });
    }
}
