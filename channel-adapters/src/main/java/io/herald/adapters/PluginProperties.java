package io.herald.adapters;

import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.validation.ValidationBindHandler;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.core.env.Environment;
import org.springframework.validation.beanvalidation.SpringValidatorAdapter;

/**
 * The configuration each channel plug-in's properties record is bound from, at the prefix its
 * {@code @ConfigurationProperties} names, with its defaults and its constraints checked (a value
 * that breaks one stops the start). A plug-in's properties are thus registered in one place: its
 * line in {@link ChannelAdaptersConfiguration#create}.
 */
public final class PluginProperties {

    private static final class Validator {
        private static final ValidatorFactory FACTORY = Validation.buildDefaultValidatorFactory();
    }

    private final Binder binder;

    private PluginProperties(Binder binder) {
        this.binder = binder;
    }

    /** The application's configuration. */
    public static PluginProperties of(Environment environment) {
        return new PluginProperties(Binder.get(environment));
    }

    /** These values only (full keys, e.g. {@code herald.channels.facebook.read-timeout}), defaults for the rest. */
    public static PluginProperties of(Map<String, String> values) {
        return new PluginProperties(new Binder(new MapConfigurationPropertySource(values)));
    }

    /** Every plug-in's defaults, as an empty configuration gives them. */
    public static PluginProperties defaults() {
        return of(Map.of());
    }

    /** A plug-in's properties record, bound at the prefix its {@code @ConfigurationProperties} names. */
    public <T> T bind(Class<T> type) {
        ConfigurationProperties annotation = type.getAnnotation(ConfigurationProperties.class);
        if (annotation == null) {
            throw new IllegalArgumentException(type.getName() + " names no @ConfigurationProperties prefix");
        }
        String prefix = annotation.prefix().isEmpty() ? annotation.value() : annotation.prefix();
        return binder.bindOrCreate(prefix, Bindable.of(type),
                new ValidationBindHandler(new SpringValidatorAdapter(Validator.FACTORY.getValidator())));
    }
}
