package io.herald.deploy.axon;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.axonframework.serialization.SerializedType;
import org.axonframework.serialization.json.JacksonSerializer;

/**
 * Axon's Jackson serializer, resolving each stored type name to its class once. Axon asks for
 * the class of every event's payload and metadata each time it reads one (and once more while
 * upcasting), and Jackson's type factory answers with {@code Class.forName}: in a profile of a
 * projection rebuild those lookups were about a twelfth of Herald's CPU samples. The classes of a
 * running node do not change, and a name no class has stays unknown, as Axon itself remembers.
 */
final class TypeCachingJacksonSerializer extends JacksonSerializer {

    private final Map<String, Class<?>> classes = new ConcurrentHashMap<>();

    TypeCachingJacksonSerializer(Builder builder) {
        super(builder);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Class classForType(SerializedType type) {
        return classes.computeIfAbsent(type.getName(), name -> super.classForType(type));
    }
}
