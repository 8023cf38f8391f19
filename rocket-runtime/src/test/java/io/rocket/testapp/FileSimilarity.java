package io.rocket.testapp;

import io.rocket.core.InputFiles;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/** Test application: path keys, each key's text is its file's contents; labelled by file name. */
public class FileSimilarity extends TextSimilarity<Path> {

    @Override
    public String label(Path key) {
        return key.getFileName().toString();
    }

    @Override
    public List<Path> inputFiles(Path key) {
        return List.of(key);
    }

    @Override
    protected byte[] text(Path key, InputFiles files) {
        ByteBuffer bytes = files.bytes(0);
        byte[] text = new byte[bytes.remaining()];
        bytes.get(text);
        return text;
    }
}
