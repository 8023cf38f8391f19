package io.rocket.cli;

import io.rocket.core.Application;
import io.rocket.core.KeyParser;
import io.rocket.inputs.InputLocations;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * How the generic command turns key texts into an application's keys: by its {@link KeyParser} when it implements
 * one, else by the key type {@code K} its class binds in {@code Application<K, R>} (through any chain of generic
 * superclasses and interfaces): {@code String}, {@code CharSequence} and {@code Object} keys are the text,
 * {@code Path} keys a local path or remote location. Any other key type is a {@link CommandFailure}.
 */
final class KeyTypes {

    private KeyTypes() {
    }

    /**
     * How the key texts of {@code app} become keys: its {@link KeyParser}, else by its key type.
     *
     * @param command the command as messages name it, e.g. {@code io.rocket.Main}
     * @throws CommandFailure when the key type is one the command cannot make from text
     */
    @SuppressWarnings("unchecked")
    static Function<String, Object> parser(Application<?, ?> app, String command) {
        if (app instanceof KeyParser<?> parser) {
            return text -> ((KeyParser<Object>) parser).parseKey(text);
        }
        Type keyType = keyType(app.getClass());
        Class<?> raw = erasure(keyType);
        if (raw == String.class || raw == CharSequence.class || raw == Object.class) {
            return text -> text;
        }
        if (raw == Path.class) {
            return InputLocations.defaults()::resolve;
        }
        String name = keyType == null ? "unknown" : keyType.getTypeName();
        throw new CommandFailure(ExitCode.USAGE, app.getClass().getName() + " has keys of type " + name + ", which "
                + command + " cannot make from text: implement " + KeyParser.class.getName() + "<" + name + "> in it");
    }

    /** The {@code K} of {@code Application<K, R>} as {@code type} binds it (Object when it leaves it open). */
    static Type keyType(Class<?> type) {
        Type k = find(type, new HashMap<>(), 0);
        return k == null ? Object.class : k;
    }

    /** The {@code R} of {@code Application<K, R>} as {@code type} binds it (Object when it leaves it open). */
    static Type resultType(Class<?> type) {
        Type r = find(type, new HashMap<>(), 1);
        return r == null ? Object.class : r;
    }

    private static Type find(Type type, Map<TypeVariable<?>, Type> bindings, int argument) {
        Class<?> raw;
        if (type instanceof ParameterizedType p) {
            raw = (Class<?>) p.getRawType();
            TypeVariable<?>[] variables = raw.getTypeParameters();
            Type[] arguments = p.getActualTypeArguments();
            for (int i = 0; i < variables.length && i < arguments.length; i++) {
                bindings.put(variables[i], resolve(arguments[i], bindings));
            }
            if (raw == Application.class) {
                return bindings.get(variables[argument]);
            }
        } else if (type instanceof Class<?> c) {
            raw = c;
            if (raw == Application.class) {
                return Object.class; // implemented raw
            }
        } else {
            return null;
        }
        List<Type> supertypes = new ArrayList<>();
        if (raw.getGenericSuperclass() != null) {
            supertypes.add(raw.getGenericSuperclass());
        }
        supertypes.addAll(List.of(raw.getGenericInterfaces()));
        for (Type s : supertypes) {
            Type k = find(s, bindings, argument);
            if (k != null) {
                return k;
            }
        }
        return null;
    }

    private static Type resolve(Type type, Map<TypeVariable<?>, Type> bindings) {
        Type t = type;
        while (t instanceof TypeVariable<?> v && bindings.containsKey(v)) {
            t = bindings.get(v);
        }
        return t;
    }

    /** The class a type stands for: a variable or wildcard by its first bound, a generic array as Object[]. */
    static Class<?> erasure(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        if (type instanceof TypeVariable<?> v) {
            return v.getBounds().length == 0 ? Object.class : erasure(v.getBounds()[0]);
        }
        if (type instanceof WildcardType w) {
            return w.getUpperBounds().length == 0 ? Object.class : erasure(w.getUpperBounds()[0]);
        }
        if (type instanceof GenericArrayType) {
            return Object[].class;
        }
        return Object.class;
    }
}
