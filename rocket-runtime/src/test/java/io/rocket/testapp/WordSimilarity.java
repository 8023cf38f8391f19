package io.rocket.testapp;

import io.rocket.core.InputFiles;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/** Test application: string keys, each key's text is the key itself (no input files). */
public class WordSimilarity extends TextSimilarity<String> {

    @Override
    public List<Path> inputFiles(String key) {
        return List.of();
    }

    @Override
    protected byte[] text(String key, InputFiles files) {
        return key.getBytes(StandardCharsets.UTF_8);
    }
}
